//! Typed errors of the store.

use std::fmt;

/// Everything that can go wrong in the store. Bad input never panics: it is one of these.
#[derive(Debug)]
pub enum Error {
    /// A key is empty or longer than [`crate::MAX_KEY_LEN`].
    KeyLength {
        /// The offending length.
        len: usize,
    },
    /// A value is longer than [`crate::MAX_VALUE_LEN`].
    ValueLength {
        /// The offending length.
        len: usize,
    },
    /// A checkpoint handle does not name an open overlay layer.
    BadCheckpoint {
        /// Depth named by the handle.
        depth: usize,
        /// Number of layers currently open.
        open: usize,
    },
    /// A version is not among the retained committed versions.
    VersionUnavailable {
        /// The requested version.
        version: u64,
        /// Oldest retained version.
        oldest: u64,
        /// Latest committed version.
        latest: u64,
    },
    /// Bytes on disk (or handed to a decoder) are malformed.
    Corrupt(String),
    /// The directory is already opened by another `Db`.
    Locked,
    /// An earlier I/O failure during commit left memory ahead of disk: reopen the store.
    Poisoned,
    /// A configuration value is out of range.
    Config(String),
    /// The store was closed with [`crate::Db::close`].
    Closed,
    /// An operating-system I/O error.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::KeyLength { len } => {
                write!(f, "key length {len} outside 1..={}", crate::MAX_KEY_LEN)
            }
            Error::ValueLength { len } => {
                write!(f, "value length {len} above {}", crate::MAX_VALUE_LEN)
            }
            Error::BadCheckpoint { depth, open } => {
                write!(
                    f,
                    "checkpoint at depth {depth} is not open ({open} layers open)"
                )
            }
            Error::VersionUnavailable {
                version,
                oldest,
                latest,
            } => {
                write!(
                    f,
                    "version {version} not retained (retained {oldest}..={latest})"
                )
            }
            Error::Corrupt(m) => write!(f, "corrupt store data: {m}"),
            Error::Locked => write!(f, "store directory is locked by another instance"),
            Error::Poisoned => write!(f, "store poisoned by an earlier I/O failure; reopen it"),
            Error::Config(m) => write!(f, "bad configuration: {m}"),
            Error::Closed => write!(f, "store is closed"),
            Error::Io(e) => write!(f, "i/o error: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl Error {
    /// A stable machine-readable code for the error kind (used by the addon).
    pub fn code(&self) -> &'static str {
        match self {
            Error::KeyLength { .. } => "QMDB_KEY_LENGTH",
            Error::ValueLength { .. } => "QMDB_VALUE_LENGTH",
            Error::BadCheckpoint { .. } => "QMDB_BAD_CHECKPOINT",
            Error::VersionUnavailable { .. } => "QMDB_VERSION_UNAVAILABLE",
            Error::Corrupt(_) => "QMDB_CORRUPT",
            Error::Locked => "QMDB_LOCKED",
            Error::Poisoned => "QMDB_POISONED",
            Error::Config(_) => "QMDB_CONFIG",
            Error::Closed => "QMDB_CLOSED",
            Error::Io(_) => "QMDB_IO",
        }
    }
}
