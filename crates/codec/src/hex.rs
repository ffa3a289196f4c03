//! Lowercase hex helpers (no `0x` handling here; see [`parse_prefixed`]).

/// Why a hex string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HexError {
    /// The string does not start with `0x`.
    MissingPrefix,
    /// Odd number of hex digits.
    OddLength,
    /// A character that is not a hex digit, at this byte offset (after the prefix).
    InvalidChar(usize),
    /// The decoded length is not the required one.
    WrongLength {
        /// Required number of bytes.
        expected: usize,
        /// Decoded number of bytes.
        found: usize,
    },
}

impl core::fmt::Display for HexError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::MissingPrefix => f.write_str("expected a 0x-prefixed hex string"),
            Self::OddLength => f.write_str("hex string has an odd number of digits"),
            Self::InvalidChar(i) => write!(f, "invalid hex digit at offset {i}"),
            Self::WrongLength { expected, found } => {
                write!(f, "expected {expected} bytes, found {found}")
            }
        }
    }
}

impl std::error::Error for HexError {}

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex of `bytes`, without prefix.
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 0x0f) as usize] as char);
    }
    s
}

/// `0x` + lowercase hex of `bytes`.
pub fn encode_prefixed(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    s.push_str(&encode(bytes));
    s
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes hex without prefix; upper and lower case digits are accepted.
pub fn decode(s: &str) -> Result<Vec<u8>, HexError> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(HexError::OddLength);
    }
    let mut out = Vec::with_capacity(b.len() / 2);
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let hi = nibble(pair[0]).ok_or(HexError::InvalidChar(2 * i))?;
        let lo = nibble(pair[1]).ok_or(HexError::InvalidChar(2 * i + 1))?;
        out.push((hi << 4) | lo);
    }
    Ok(out)
}

/// Decodes a `0x`-prefixed hex string (any digit case).
pub fn parse_prefixed(s: &str) -> Result<Vec<u8>, HexError> {
    let rest = s.strip_prefix("0x").ok_or(HexError::MissingPrefix)?;
    decode(rest)
}

/// Decodes a `0x`-prefixed hex string of exactly `N` bytes.
pub fn parse_prefixed_fixed<const N: usize>(s: &str) -> Result<[u8; N], HexError> {
    let v = parse_prefixed(s)?;
    <[u8; N]>::try_from(v.as_slice()).map_err(|_| HexError::WrongLength {
        expected: N,
        found: v.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_case() {
        assert_eq!(encode(&[0x00, 0xab, 0xff]), "00abff");
        assert_eq!(decode("00ABff").unwrap(), vec![0x00, 0xab, 0xff]);
        assert_eq!(parse_prefixed("0x").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(parse_prefixed("ab"), Err(HexError::MissingPrefix));
        assert_eq!(decode("abc"), Err(HexError::OddLength));
        assert_eq!(decode("zz"), Err(HexError::InvalidChar(0)));
        assert_eq!(
            parse_prefixed_fixed::<2>("0x00"),
            Err(HexError::WrongLength {
                expected: 2,
                found: 1
            })
        );
    }
}
