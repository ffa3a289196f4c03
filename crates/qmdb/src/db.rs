//! The store: index + activity bitmap + MMR over the durable operation log, with a pending
//! block overlay (nested checkpoints) and a window of retained historical versions.

use crate::bitmap::{Bitmap, build_levels, path_in};
use crate::hash::{CHUNK_BITS, Chunk, Hash, bitmap_depth, mmr_leaves, mmr_leaves_with, state_root};
use crate::ikey::IKey;
use crate::index::{KeyIndex, NO_SLOT};
use crate::log::{FrameSum, FrameView, Log, apply_cut, sync_dir};
use crate::mmr::Mmr;
use crate::op::{Op, Reader};
use crate::proof::{Proof, Witness};
use crate::snapshot;
use crate::{Error, MAX_KEY_LEN, MAX_VALUE_LEN};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PENDING: u64 = u64::MAX;
/// Blocks with at least this many operations hash on two threads.
const PARALLEL_MIN_OPS: usize = 2048;
/// How far ahead of the inactivity floor the next slot to move is prefetched.
const FLOOR_PREFETCH: u64 = 16;
const PINNED_FILE: &str = "pinned.bin";
const PINNED_MAGIC: &[u8; 4] = b"CQP1";
const REWIND_FILE: &str = "rewind.bin";
const REWIND_TMP: &str = "rewind.tmp";
const REWIND_MAGIC: &[u8; 4] = b"CQR1";

/// A key and its value.
pub type KeyValue = (Vec<u8>, Vec<u8>);

/// `(key, location before the version)` undo entries of one version.
type UndoKeys = Vec<(IKey, Option<u64>)>;

/// Store configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of committed versions that stay readable and provable (latest included), `>= 1`.
    pub history: u64,
    /// Target size of one log segment file; pruning deletes whole segments.
    pub segment_bytes: u64,
    /// Prune history older than the window automatically after each commit.
    pub auto_prune: bool,
    /// Bits of each key's hash the in-memory index table keeps (1..=32, default 32). Not
    /// persisted and never part of a root: fewer bits only make lookups compare more full keys
    /// (tests use 1–2 bits to force fingerprint collisions), never change an answer.
    pub index_fingerprint_bits: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            history: 128,
            segment_bytes: 64 << 20,
            auto_prune: true,
            index_fingerprint_bits: 32,
        }
    }
}

/// Handle to a nested overlay layer returned by [`Db::checkpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    depth: usize,
    id: u64,
}

impl Checkpoint {
    /// Nesting depth of the layer (1 = first checkpoint inside the block).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Unique id of the layer.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Rebuilds a handle from its parts (e.g. after crossing the addon boundary). A forged or
    /// stale handle is harmless: [`Db::revert`] / [`Db::release`] refuse it with `BadCheckpoint`.
    pub fn from_parts(depth: usize, id: u64) -> Checkpoint {
        Checkpoint { depth, id }
    }
}

/// What a commit produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitInfo {
    /// The new version (1 for the first commit; 0 is the empty store).
    pub version: u64,
    /// The state root of the new version.
    pub root: Hash,
    /// Total operations in the log history (the MMR size in leaves).
    pub op_count: u64,
    /// Inactivity floor after the commit.
    pub floor: u64,
    /// Live keys after the commit.
    pub active_keys: u64,
}

/// Size and shape of the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Latest committed version.
    pub version: u64,
    /// Operations ever appended.
    pub op_count: u64,
    /// Inactivity floor.
    pub floor: u64,
    /// Live keys.
    pub active_keys: u64,
    /// Operations before this location have been pruned from disk.
    pub pruned_to: u64,
    /// Bytes on disk (segments plus pinned-node file).
    pub disk_bytes: u64,
    /// Number of log segment files.
    pub segments: usize,
    /// Approximate heap bytes of the in-memory key index (table, slots, ordered list,
    /// location map).
    pub index_bytes: u64,
}

#[derive(Debug, Default)]
struct Record {
    info: CommitInfo,
    /// `(key, its location at version - 1)` (None = absent) for every key this version changed,
    /// each key once, in emission order.
    undo_keys: Vec<(IKey, Option<u64>)>,
    /// `undo_keys` as a map, built on the first historical read.
    undo_map: OnceLock<HashMap<IKey, Option<u64>>>,
    /// Chunk index -> chunk at `version - 1`, for chunks whose existing bits this version changed.
    undo_chunks: ChunkMap,
}

/// Chunk index -> chunk. Its iteration order never reaches a result: undo restores chunks by
/// index and the snapshot sorts them.
type ChunkMap = HashMap<u64, Chunk, std::hash::BuildHasherDefault<ChunkIndexHasher>>;

/// Hasher of [`ChunkMap`]'s keys (chunk indices): one multiply-xorshift instead of SipHash —
/// every update of a block probes the map once.
#[derive(Default)]
struct ChunkIndexHasher(u64);

impl std::hash::Hasher for ChunkIndexHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        let x = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 32);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl Record {
    fn undo(&self) -> &HashMap<IKey, Option<u64>> {
        self.undo_map.get_or_init(|| {
            let mut m = HashMap::with_capacity(self.undo_keys.len());
            for (k, l) in &self.undo_keys {
                m.entry(k.clone()).or_insert(*l);
            }
            m
        })
    }

    fn forget_undo(&mut self) {
        self.undo_keys = Vec::new();
        self.undo_map = OnceLock::new();
        self.undo_chunks = ChunkMap::default();
    }
}

/// One effective change of a block being committed.
#[derive(Debug)]
struct Change {
    key: IKey,
    value: Option<Vec<u8>>,
    /// Slot of the key (existing, or allocated for an insert).
    slot: Option<u32>,
    /// Location of the key's active update before the block.
    prior: Option<u64>,
}

#[derive(Debug)]
struct Layer {
    id: u64,
    writes: BTreeMap<IKey, Option<Vec<u8>>>,
}

/// The authenticated world-state store. All methods are synchronous; `&self` methods only read.
///
/// Invariants: `keys` maps every live key to the location of its active `Update`; bit `l` of
/// `bitmap` is set iff `l` is such a location; `mmr` has one leaf per operation; every active
/// location is `>= floor`; the last record describes `version` and its `root` equals
/// `state_root(op_count, mmr root, bitmap root)`.
#[derive(Debug)]
pub struct Db {
    dir: PathBuf,
    cfg: Config,
    /// The directory lock; `None` once closed.
    lock: Option<File>,
    log: Log,
    mmr: Mmr,
    bitmap: Bitmap,
    keys: KeyIndex,
    floor: u64,
    records: VecDeque<Record>,
    layers: Vec<Layer>,
    next_layer_id: u64,
    poisoned: bool,
    /// Reused frame and offset buffers of `commit`.
    frame_buf: Vec<u8>,
    rel_buf: Vec<u64>,
    /// Cleared undo buffers of the last record that left the window, reused by `commit`.
    spare: (UndoKeys, ChunkMap),
    /// Reused buffers of `commit`: the block's effective changes and its MMR leaves.
    change_buf: Vec<Change>,
    leaves_buf: Vec<Hash>,
    /// Reused buffer of `commit`: the index hashes of the block's keys.
    hash_buf: Vec<u32>,
}

impl Drop for Db {
    /// Dropping an open store is a clean close (see [`Db::close`]); errors are ignored here
    /// (a missing snapshot only makes the next open replay the log).
    fn drop(&mut self) {
        let _ = self.close();
    }
}

/// Validates a key length.
pub fn check_key(key: &[u8]) -> Result<(), Error> {
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(Error::KeyLength { len: key.len() });
    }
    Ok(())
}

impl Db {
    /// Opens the store in `dir` (created if missing), recovering to the last committed version.
    pub fn open(dir: impl AsRef<Path>, cfg: Config) -> Result<Db, Error> {
        if cfg.history == 0 {
            return Err(Error::Config("history must be at least 1".into()));
        }
        if cfg.segment_bytes == 0 {
            return Err(Error::Config("segment_bytes must be positive".into()));
        }
        let dir = dir.as_ref().to_path_buf();
        fs::create_dir_all(&dir)?;
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("LOCK"))?;
        if lock.try_lock().is_err() {
            return Err(Error::Locked);
        }
        let _ = fs::remove_file(dir.join("pinned.tmp"));
        let _ = fs::remove_file(dir.join(snapshot::TMP));
        let _ = fs::remove_file(dir.join(REWIND_TMP));
        finish_rewind(&dir)?;
        let (pruned, peaks) = read_pinned(&dir)?;
        // A snapshot written by a clean close describes exactly one on-disk state: use it if
        // it matches, and delete it either way before anything else can be committed.
        let snap_path = dir.join(snapshot::FILE);
        if snap_path.exists() {
            let loaded = fs::read(&snap_path)
                .ok()
                .and_then(|b| snapshot::read(&b).ok());
            fs::remove_file(&snap_path)?;
            sync_dir(&dir)?;
            if let Some(d) = loaded
                && let Some(st) = Loaded::from_snapshot(&dir, &cfg, pruned, d)?
            {
                return Ok(Db {
                    dir,
                    cfg,
                    lock: Some(lock),
                    log: st.log,
                    mmr: st.mmr,
                    bitmap: st.bitmap,
                    keys: st.keys,
                    floor: st.floor,
                    records: st.records,
                    layers: vec![Layer {
                        id: 0,
                        writes: BTreeMap::new(),
                    }],
                    next_layer_id: 1,
                    poisoned: false,
                    frame_buf: Vec::new(),
                    rel_buf: Vec::new(),
                    spare: Default::default(),
                    change_buf: Vec::new(),
                    leaves_buf: Vec::new(),
                    hash_buf: Vec::new(),
                });
            }
        }
        let mmr = Mmr::from_pinned(pruned, &peaks)
            .ok_or_else(|| Error::Corrupt("pinned peaks".into()))?;
        let mut bitmap = Bitmap::default();
        bitmap.push_zeros(pruned);
        let mut st = Replay {
            mmr,
            bitmap,
            keys: KeyIndex::with_fingerprint_bits(pruned, cfg.index_fingerprint_bits),
            floor: pruned,
            records: VecDeque::new(),
            history: cfg.history,
            last_root: None,
            pruned,
        };
        st.keys.begin_bulk();
        let log = Log::open(&dir, cfg.segment_bytes, pruned, |f| st.frame(f))?;
        let mut st = st;
        st.keys.end_bulk();
        st.bitmap.merkleize();
        let op_count = st.mmr.leaves();
        let root = state_root(op_count, &st.mmr.root(), &st.bitmap.root());
        if let Some(expected) = st.last_root
            && expected != root
        {
            return Err(Error::Corrupt(
                "recomputed state root differs from the logged root (or the store was written \
                 with another state-format version)"
                    .into(),
            ));
        }
        // Versions whose live operations reach below the pruned prefix cannot be rebuilt.
        while st.records.len() > 1 && st.records.front().is_some_and(|r| r.info.floor < pruned) {
            st.records.pop_front();
        }
        if let Some(front) = st.records.front_mut() {
            front.forget_undo();
        }
        if st.records.is_empty() {
            // Empty store: version 0.
            st.records.push_back(Record {
                info: CommitInfo {
                    version: 0,
                    root,
                    op_count: 0,
                    floor: 0,
                    active_keys: 0,
                },
                ..Record::default()
            });
        }
        Ok(Db {
            dir,
            cfg,
            lock: Some(lock),
            log,
            mmr: st.mmr,
            bitmap: st.bitmap,
            keys: st.keys,
            floor: st.floor,
            records: st.records,
            layers: vec![Layer {
                id: 0,
                writes: BTreeMap::new(),
            }],
            next_layer_id: 1,
            poisoned: false,
            frame_buf: Vec::new(),
            rel_buf: Vec::new(),
            spare: Default::default(),
            change_buf: Vec::new(),
            leaves_buf: Vec::new(),
            hash_buf: Vec::new(),
        })
    }

    /// `Err(Closed)` once [`Db::close`] ran.
    fn live(&self) -> Result<(), Error> {
        if self.lock.is_none() {
            return Err(Error::Closed);
        }
        Ok(())
    }

    /// Whether [`Db::close`] ran.
    pub fn is_closed(&self) -> bool {
        self.lock.is_none()
    }

    /// Closes the store: pending (uncommitted) writes are dropped, a snapshot of the in-memory
    /// state is written so the next open does not replay the log (`snapshot.bin`, see
    /// `docs/state.md`), the in-memory state is freed and the directory lock is released, so
    /// another `Db` may open it. Dropping a `Db` closes it the same way. Afterwards every
    /// fallible method returns `Error::Closed`; `version()` and `root()` keep answering with the
    /// last committed values. Closing twice is a no-op.
    pub fn close(&mut self) -> Result<(), Error> {
        if self.lock.is_none() {
            return Ok(());
        }
        self.discard_pending();
        let written = if self.poisoned || self.version() == 0 {
            Ok(())
        } else {
            self.write_snapshot()
        };
        self.mmr = Mmr::default();
        self.bitmap = Bitmap::default();
        self.keys = KeyIndex::default();
        while self.records.len() > 1 {
            self.records.pop_front();
        }
        if let Some(r) = self.records.front_mut() {
            r.forget_undo();
        }
        self.frame_buf = Vec::new();
        self.rel_buf = Vec::new();
        self.spare = Default::default();
        self.change_buf = Vec::new();
        self.leaves_buf = Vec::new();
        self.lock = None;
        written
    }

    /// Writes the reopen snapshot (temp file, fsync, rename, fsync dir).
    fn write_snapshot(&self) -> Result<(), Error> {
        let (log_base, next_version, segments, offsets) = self.log.raw();
        let (mmr_leaves, mmr_pruned, mmr_nodes, mmr_pinned) = self.mmr.raw();
        let (bitmap_len, chunks) = self.bitmap.raw();
        let info = *self.latest();
        let parts = snapshot::Parts {
            version: info.version,
            root: info.root,
            floor: self.floor,
            log_base,
            next_version,
            segments,
            offsets,
            mmr_leaves,
            mmr_pruned,
            mmr_pinned,
            mmr_nodes,
            bitmap_len,
            chunks,
        };
        let records: Vec<snapshot::RecordData> = self
            .records
            .iter()
            .map(|r| {
                let mut undo_chunks: Vec<(u64, Chunk)> =
                    r.undo_chunks.iter().map(|(i, c)| (*i, *c)).collect();
                undo_chunks.sort_unstable_by_key(|(i, _)| *i);
                snapshot::RecordData {
                    info: (
                        r.info.version,
                        r.info.root,
                        r.info.op_count,
                        r.info.floor,
                        r.info.active_keys,
                    ),
                    undo_keys: r.undo_keys.clone(),
                    undo_chunks,
                }
            })
            .collect();
        let tmp = self.dir.join(snapshot::TMP);
        let file = File::create(&tmp)?;
        let index = self.keys.iter().map(|(k, loc)| (k.as_slice(), loc));
        drop(snapshot::write(
            file,
            &parts,
            self.keys.len(),
            index,
            &records,
        )?);
        fs::rename(&tmp, self.dir.join(snapshot::FILE))?;
        sync_dir(&self.dir)
    }

    fn latest(&self) -> &CommitInfo {
        &self.records.back().expect("at least one record").info
    }

    /// Latest committed version.
    pub fn version(&self) -> u64 {
        self.latest().version
    }

    /// State root of the latest committed version.
    pub fn root(&self) -> Hash {
        self.latest().root
    }

    /// Oldest version still readable and provable.
    pub fn oldest_version(&self) -> u64 {
        self.records
            .front()
            .expect("at least one record")
            .info
            .version
    }

    /// Commit info of every retained version, oldest first.
    pub fn history(&self) -> Vec<CommitInfo> {
        self.records.iter().map(|r| r.info).collect()
    }

    /// Commit info of a retained version.
    pub fn commit_info(&self, version: u64) -> Result<CommitInfo, Error> {
        Ok(self.record(version)?.info)
    }

    fn record(&self, version: u64) -> Result<&Record, Error> {
        let oldest = self.oldest_version();
        let latest = self.version();
        if version < oldest || version > latest {
            return Err(Error::VersionUnavailable {
                version,
                oldest,
                latest,
            });
        }
        Ok(&self.records[(version - oldest) as usize])
    }

    /// Size and shape of the store.
    pub fn stats(&self) -> Stats {
        let info = self.latest();
        Stats {
            version: info.version,
            op_count: info.op_count,
            floor: info.floor,
            active_keys: info.active_keys,
            pruned_to: self.log.base(),
            disk_bytes: self.disk_bytes(),
            segments: self.log.segment_count(),
            index_bytes: self.keys.heap_bytes(),
        }
    }

    /// Bytes the store occupies on disk.
    pub fn disk_bytes(&self) -> u64 {
        let pinned = fs::metadata(self.dir.join(PINNED_FILE))
            .map(|m| m.len())
            .unwrap_or(0);
        self.log.disk_bytes() + pinned
    }

    // ----- pending block overlay -----

    /// Writes `key = value` into the innermost open overlay layer.
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<(), Error> {
        self.live()?;
        check_key(key)?;
        if value.len() > MAX_VALUE_LEN {
            return Err(Error::ValueLength { len: value.len() });
        }
        self.top().insert(IKey::new(key), Some(value.to_vec()));
        Ok(())
    }

    /// Deletes `key` in the innermost open overlay layer (deleting an absent key is a no-op).
    pub fn delete(&mut self, key: &[u8]) -> Result<(), Error> {
        self.live()?;
        check_key(key)?;
        self.top().insert(IKey::new(key), None);
        Ok(())
    }

    fn top(&mut self) -> &mut BTreeMap<IKey, Option<Vec<u8>>> {
        &mut self.layers.last_mut().expect("layer 0 always open").writes
    }

    /// Reads `key` as the pending block sees it (overlay first, then the latest commit).
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        check_key(key)?;
        let ik = IKey::new(key);
        for layer in self.layers.iter().rev() {
            if let Some(v) = layer.writes.get(&ik) {
                return Ok(v.clone());
            }
        }
        self.get_committed(key)
    }

    /// Reads `key` in the latest committed version, ignoring pending writes.
    pub fn get_committed(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        self.live()?;
        check_key(key)?;
        match self.keys.get(key) {
            Some(loc) => self.value_at_loc(loc).map(Some),
            None => Ok(None),
        }
    }

    /// Reads `key` in a retained committed version.
    pub fn get_at(&self, version: u64, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        self.live()?;
        check_key(key)?;
        self.record(version)?;
        match self.loc_at(version, key) {
            Some(loc) => self.value_at_loc(loc).map(Some),
            None => Ok(None),
        }
    }

    /// Live keys starting with `prefix` as the pending block sees them, ascending, at most
    /// `limit` of them, with their values.
    pub fn scan_prefix(&self, prefix: &[u8], limit: usize) -> Result<Vec<KeyValue>, Error> {
        self.live()?;
        let mut merged: BTreeMap<Vec<u8>, Option<Vec<u8>>> = BTreeMap::new();
        // Committed keys first (lazy values), then overlay layers from outer to inner.
        let mut committed: Vec<(&[u8], u64)> = Vec::new();
        for (k, loc) in self.keys.range_from(prefix) {
            if !k.as_slice().starts_with(prefix) {
                break;
            }
            committed.push((k.as_slice(), loc));
        }
        let mut overlay: BTreeMap<&[u8], &Option<Vec<u8>>> = BTreeMap::new();
        for layer in &self.layers {
            for (k, v) in layer
                .writes
                .range::<[u8], _>((Bound::Included(prefix), Bound::Unbounded))
            {
                if !k.as_slice().starts_with(prefix) {
                    break;
                }
                overlay.insert(k.as_slice(), v);
            }
        }
        for (k, loc) in committed {
            if merged.len() > limit.saturating_add(overlay.len()) {
                break;
            }
            if !overlay.contains_key(k) {
                merged.insert(k.to_vec(), Some(self.value_at_loc(loc)?));
            }
        }
        for (k, v) in overlay {
            merged.insert(k.to_vec(), v.clone());
        }
        Ok(merged
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .take(limit)
            .collect())
    }

    /// Opens a nested overlay layer (transaction or message scope). Writes go to it until it is
    /// reverted or released.
    pub fn checkpoint(&mut self) -> Checkpoint {
        let id = self.next_layer_id;
        self.next_layer_id += 1;
        self.layers.push(Layer {
            id,
            writes: BTreeMap::new(),
        });
        Checkpoint {
            depth: self.layers.len() - 1,
            id,
        }
    }

    /// The handle of the open checkpoint whose id is `id` (handles crossing the addon boundary
    /// as one number). Refused with `BadCheckpoint` when no open layer has that id.
    pub fn checkpoint_of(&self, id: u64) -> Result<Checkpoint, Error> {
        match self.layers.iter().position(|l| l.id == id) {
            Some(depth) if depth > 0 => Ok(Checkpoint { depth, id }),
            _ => Err(Error::BadCheckpoint {
                depth: 0,
                open: self.layers.len(),
            }),
        }
    }

    /// Number of open checkpoints (nested overlay layers above the block layer).
    pub fn open_checkpoints(&self) -> usize {
        self.layers.len() - 1
    }

    fn check_cp(&self, cp: Checkpoint) -> Result<(), Error> {
        self.live()?;
        match self.layers.get(cp.depth) {
            Some(l) if cp.depth > 0 && l.id == cp.id => Ok(()),
            _ => Err(Error::BadCheckpoint {
                depth: cp.depth,
                open: self.layers.len(),
            }),
        }
    }

    /// Discards every write made since `cp` was taken (including inner checkpoints).
    pub fn revert(&mut self, cp: Checkpoint) -> Result<(), Error> {
        self.check_cp(cp)?;
        self.layers.truncate(cp.depth);
        Ok(())
    }

    /// Keeps the writes made since `cp`, folding them into the enclosing layer.
    pub fn release(&mut self, cp: Checkpoint) -> Result<(), Error> {
        self.check_cp(cp)?;
        let inner: Vec<Layer> = self.layers.drain(cp.depth..).collect();
        let outer = &mut self.layers[cp.depth - 1].writes;
        for layer in inner {
            outer.extend(layer.writes);
        }
        Ok(())
    }

    /// Drops every pending write of the block (all layers).
    pub fn discard_pending(&mut self) {
        self.layers.truncate(1);
        self.layers[0].writes.clear();
    }

    /// Number of pending writes (distinct keys across layers, counted per layer).
    pub fn pending_len(&self) -> usize {
        self.layers.iter().map(|l| l.writes.len()).sum()
    }

    // ----- commit -----

    /// Commits every pending write as the next version and returns its root. The frame is
    /// durable (fdatasync) before this returns. On an I/O error the store is poisoned.
    pub fn commit(&mut self) -> Result<CommitInfo, Error> {
        self.live()?;
        if self.poisoned {
            return Err(Error::Poisoned);
        }
        let mut changes = std::mem::take(&mut self.layers[0].writes);
        for layer in self.layers.drain(1..) {
            changes.extend(layer.writes);
        }
        self.poisoned = true; // cleared on success
        let info = self.commit_changes(changes)?;
        self.poisoned = false;
        if self.cfg.auto_prune {
            self.prune()?;
        }
        Ok(info)
    }

    fn commit_changes(
        &mut self,
        changes: BTreeMap<IKey, Option<Vec<u8>>>,
    ) -> Result<CommitInfo, Error> {
        let version = self.version() + 1;
        let batch_start = self.mmr.leaves();
        // 1. classify against the committed index (one hash-table probe per key); drop
        //    deletes of absent keys.
        let mut effective = std::mem::take(&mut self.change_buf);
        effective.clear();
        effective.reserve(changes.len());
        let mut structural = false;
        // Memory-level parallelism: at 10M keys every lookup misses the caches (table bucket,
        // then the slot), so the block's buckets and candidate slots are prefetched in two
        // passes before the lookups proper. Hints only: the lookups below decide.
        let mut hashes = std::mem::take(&mut self.hash_buf);
        hashes.clear();
        hashes.extend(changes.keys().map(|k| self.keys.hash(k.as_slice())));
        for &h in &hashes {
            self.keys.prefetch_bucket(h);
        }
        for &h in &hashes {
            self.keys.prefetch_candidate(h);
        }
        for ((key, value), &h) in changes.into_iter().zip(hashes.iter()) {
            let slot = self.keys.slot_hashed(h, key.as_slice());
            if slot.is_none() && value.is_none() {
                continue;
            }
            structural |= slot.is_none() || value.is_none();
            let prior = slot.map(|s| self.keys.entry(s).loc);
            effective.push(Change {
                key,
                value,
                slot,
                prior,
            });
        }
        // 2. make the index hold the new key set (new keys get a slot now, location later).
        let mut touched: BTreeSet<IKey> = BTreeSet::new();
        if structural {
            for c in effective.iter_mut() {
                match (&c.value, c.prior) {
                    (None, Some(_)) => {
                        self.keys.remove(c.key.as_slice());
                    }
                    (Some(_), None) => c.slot = Some(self.keys.upsert(&c.key, PENDING).0),
                    _ => {}
                }
            }
            // 3. successor links around every inserted or deleted key (its predecessor's link
            //    changes; a predecessor outside the block is "touched").
            for c in &effective {
                if (c.value.is_none() || c.prior.is_none())
                    && let Some(ps) = self.keys.relink(c.key.as_slice())
                {
                    let p = &self.keys.entry(ps).key;
                    if effective.binary_search_by(|e| e.key.cmp(p)).is_err() {
                        touched.insert(p.clone());
                    }
                }
            }
        }
        self.hash_buf = hashes;
        // The successors' entries are read for every update's `next_key`: prefetch them.
        for c in &effective {
            if let Some(slot) = c.slot {
                self.keys.prefetch_succ(slot);
            }
        }
        // 4 + 5. emit and apply operations in key order.
        let (undo_keys, undo_chunks) = std::mem::take(&mut self.spare);
        let mut rec = Record {
            undo_keys,
            undo_chunks,
            ..Record::default()
        };
        rec.undo_keys.reserve(effective.len() * 2 + touched.len());
        rec.undo_chunks.reserve(effective.len() * 2 + touched.len());
        let mut frame = std::mem::take(&mut self.frame_buf);
        Log::reset_frame(&mut frame);
        let mut rel = std::mem::take(&mut self.rel_buf);
        rel.clear();
        let mut value_buf: Vec<u8> = Vec::new();
        let mut touched = touched.into_iter().peekable();
        let mut effective_buf = effective;
        let mut effective = effective_buf.drain(..).peekable();
        let mut emitted = 0u64;
        loop {
            let take_touched = match (effective.peek(), touched.peek()) {
                (None, None) => break,
                (Some(_), None) => false,
                (None, Some(_)) => true,
                (Some(e), Some(t)) => *t < e.key,
            };
            emitted += 1;
            if take_touched {
                let p = touched.next().expect("peeked");
                let slot = self.keys.slot(p.as_slice()).expect("touched key is live");
                let loc = self.keys.entry(slot).loc;
                value_buf.clear();
                value_buf.extend_from_slice(&self.value_at_loc(loc)?);
                let start = begin_op(&mut frame, &mut rel);
                Op::encode_update(
                    p.as_slice(),
                    &value_buf,
                    self.keys.succ_key(slot).as_slice(),
                    &mut frame,
                );
                end_op(&mut frame, start);
                self.emit_update(&mut rec, p, slot, Some(loc));
            } else {
                let c = effective.next().expect("peeked");
                let start = begin_op(&mut frame, &mut rel);
                match c.value {
                    Some(value) => {
                        let slot = c.slot.expect("slot assigned");
                        Op::encode_update(
                            c.key.as_slice(),
                            &value,
                            self.keys.succ_key(slot).as_slice(),
                            &mut frame,
                        );
                        end_op(&mut frame, start);
                        self.emit_update(&mut rec, c.key, slot, c.prior);
                    }
                    None => {
                        Op::encode_delete(c.key.as_slice(), &mut frame);
                        end_op(&mut frame, start);
                        self.emit_plain();
                        apply_bits(&mut self.bitmap, &mut rec, c.key, c.prior, false);
                    }
                }
            }
        }
        drop(effective);
        self.change_buf = effective_buf;
        // 6. raise the inactivity floor: move up to `emitted + 1` active operations to the tip,
        //    byte for byte.
        let mut budget = emitted + 1;
        while budget > 0 && self.floor < batch_start {
            let loc = self.floor;
            self.floor += 1;
            if !self.bitmap.get(loc) {
                continue;
            }
            // The slot of an active operation a little further up will be updated soon.
            let ahead = loc + FLOOR_PREFETCH;
            if ahead < batch_start {
                self.keys.prefetch_slot(self.keys.slot_of_loc(ahead));
            }
            let start = begin_op(&mut frame, &mut rel);
            self.log.read_seq_into(loc, &mut frame)?;
            end_op(&mut frame, start);
            let key = IKey::new(update_key(&frame[start + 4..])?);
            let slot = self.keys.slot_of_loc(loc);
            self.emit_update(&mut rec, key, slot, Some(loc));
            budget -= 1;
        }
        // 7. the commit operation.
        let active_keys = self.keys.len();
        let start = begin_op(&mut frame, &mut rel);
        Op::Commit {
            floor: self.floor,
            active_keys,
        }
        .encode_into(&mut frame);
        end_op(&mut frame, start);
        self.emit_plain();
        self.bitmap.push(false);
        // 8. root. The block's MMR leaves and inner nodes, the bitmap tree and the frame's
        //    checksum (over the sealed header and the operations; the root is absorbed last)
        //    are independent: the bitmap is re-merkleized and the frame absorbed on a second
        //    thread while this one hashes the leaves and folds them into the MMR (the results
        //    do not depend on the split). Both sides hash in batches (see `hash::mmr_leaves`).
        self.log.seal_header(version, &mut frame, &rel);
        let mut leaves = std::mem::take(&mut self.leaves_buf);
        leaves.clear();
        leaves.resize(rel.len(), [0; 32]);
        let sum = {
            let frame = &frame;
            let mmr = &mut self.mmr;
            let rel = &rel;
            let mut fold_leaves = || {
                let op = |i: usize| -> &[u8] {
                    let o = rel[i] as usize;
                    let n = u32::from_le_bytes(frame[o..o + 4].try_into().expect("4 bytes"));
                    &frame[o + 4..o + 4 + n as usize]
                };
                mmr_leaves_with(op, &mut leaves);
                mmr.push_leaves(&leaves);
            };
            let bitmap = &mut self.bitmap;
            let mut side = || {
                bitmap.merkleize();
                FrameSum::of(frame)
            };
            let mut sum = None;
            if rel.len() >= PARALLEL_MIN_OPS {
                sum = std::thread::scope(|s| {
                    let worker = std::thread::Builder::new().spawn_scoped(s, &mut side).ok();
                    fold_leaves();
                    // A panic on the side is a bug: propagate it rather than re-run on a
                    // half-updated tree.
                    worker.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                });
            } else {
                fold_leaves();
            }
            // No second thread (small block, or the spawn failed): the same work here.
            sum.unwrap_or_else(side)
        };
        self.leaves_buf = leaves;
        let op_count = self.mmr.leaves();
        debug_assert_eq!(op_count, self.bitmap.len());
        let root = state_root(op_count, &self.mmr.root(), &self.bitmap.root());
        // 9. durability.
        self.log
            .append_frame(version, &mut frame, &rel, &root, sum)?;
        self.frame_buf = frame;
        self.rel_buf = rel;
        // 10. bookkeeping.
        rec.info = CommitInfo {
            version,
            root,
            op_count,
            floor: self.floor,
            active_keys,
        };
        self.push_record(rec);
        Ok(*self.latest())
    }

    /// Accounts for an operation (already in the frame) that is never active: no bitmap bit is
    /// pushed here, no key owns it. MMR leaves are added for the whole frame in step 8.
    fn emit_plain(&mut self) {
        self.keys.loc_slot.push(NO_SLOT);
    }

    /// Accounts for the update (already in the frame) of `key` (owning `slot`, previously
    /// active at `prior`) at the next location and makes it the key's active operation.
    fn emit_update(&mut self, rec: &mut Record, key: IKey, slot: u32, prior: Option<u64>) {
        let loc = self.bitmap.len();
        self.keys.set_loc(slot, loc);
        self.keys.loc_slot.push(slot);
        apply_bits(&mut self.bitmap, rec, key, prior, true);
    }

    fn push_record(&mut self, rec: Record) {
        self.records.push_back(rec);
        while self.records.len() as u64 > self.cfg.history {
            self.records.pop_front();
        }
        // The oldest retained version is never rolled back past: its undo data is dead. Its
        // buffers are kept for the next commit's record (no large allocation per block).
        if let Some(front) = self.records.front_mut() {
            let mut keys = std::mem::take(&mut front.undo_keys);
            let mut chunks = std::mem::take(&mut front.undo_chunks);
            front.forget_undo();
            keys.clear();
            chunks.clear();
            if keys.capacity() >= self.spare.0.capacity() {
                self.spare = (keys, chunks);
            }
        }
    }

    /// Largest live key `< key`, else the largest live key (cyclic predecessor).
    fn pred_wrap(&self, key: &[u8]) -> Option<&[u8]> {
        self.keys.pred_wrap(key).map(|(k, _)| k.as_slice())
    }

    fn value_at_loc(&self, loc: u64) -> Result<Vec<u8>, Error> {
        let bytes = self.log.read(loc)?;
        let mut r = Reader {
            buf: &bytes,
            pos: 0,
        };
        if r.u8()? != 0x01 {
            return Err(Error::Corrupt(format!("location {loc} is not an update")));
        }
        let klen = r.u32()? as usize;
        r.take(klen)?;
        r.bytes(MAX_VALUE_LEN)
    }

    /// Location of `key`'s active update at retained `version` (caller checked retention).
    fn loc_at(&self, version: u64, key: &[u8]) -> Option<u64> {
        let oldest = self.oldest_version();
        for rec in self.records.iter().skip((version + 1 - oldest) as usize) {
            if let Some(prior) = rec.undo().get(key) {
                return *prior;
            }
        }
        self.keys.get(key)
    }

    /// Cyclic predecessor of `key` among the keys live at `version`.
    fn pred_at(&self, version: u64, key: &[u8]) -> Option<Vec<u8>> {
        if version == self.version() {
            return self.pred_wrap(key).map(|k| k.to_vec());
        }
        let oldest = self.oldest_version();
        let mut changed: BTreeSet<&[u8]> = BTreeSet::new();
        for rec in self.records.iter().skip((version + 1 - oldest) as usize) {
            changed.extend(rec.undo_keys.iter().map(|(k, _)| k.as_slice()));
        }
        let live = |k: &[u8]| !changed.contains(k) || self.loc_at(version, k).is_some();
        let search = |upper: Bound<&[u8]>| -> Option<Vec<u8>> {
            let a = self
                .keys
                .range_below(upper)
                .map(|k| k.as_slice())
                .find(|k| live(k));
            let b = changed
                .range::<[u8], _>((Bound::Unbounded, upper))
                .rev()
                .copied()
                .find(|k| live(k));
            a.max(b).map(|k| k.to_vec())
        };
        search(Bound::Excluded(key)).or_else(|| search(Bound::Unbounded))
    }

    // ----- proofs -----

    /// Proof of `key`'s value (or absence) against the latest root.
    pub fn prove(&self, key: &[u8]) -> Result<Proof, Error> {
        self.prove_at(self.version(), key)
    }

    /// Proof of `key`'s value (or absence) against the root of retained `version`.
    pub fn prove_at(&self, version: u64, key: &[u8]) -> Result<Proof, Error> {
        self.live()?;
        check_key(key)?;
        let info = self.record(version)?.info;
        let n = info.op_count;
        let peaks = self.mmr.peaks_at(n);
        let latest = version == self.version();
        let levels = if latest {
            None
        } else {
            Some(self.historical_levels(version, n))
        };
        let bitmap_root_of = |levels: &Option<Vec<Vec<Hash>>>| match levels {
            Some(l) => l.last().expect("root level")[0],
            None => self.bitmap.root(),
        };
        if info.active_keys == 0 {
            let last = if n == 0 {
                None
            } else {
                let op = Op::decode(&self.log.read(n - 1)?)?;
                let path = self
                    .mmr
                    .path(n, n - 1)
                    .ok_or_else(|| Error::Corrupt("missing mmr nodes".into()))?;
                Some((op, path))
            };
            let bitmap_root = bitmap_root_of(&levels);
            return Ok(Proof {
                op_count: n,
                peaks,
                witness: Witness::Empty { last, bitmap_root },
            });
        }
        let loc = match self.loc_at(version, key) {
            Some(loc) => loc,
            None => {
                let p = self
                    .pred_at(version, key)
                    .ok_or_else(|| Error::Corrupt("no live key".into()))?;
                self.loc_at(version, &p)
                    .ok_or_else(|| Error::Corrupt("predecessor vanished".into()))?
            }
        };
        self.op_witness(version, n, peaks, levels.as_ref(), loc)
    }

    /// A witness for the `Update` at `loc` against the root of retained `version`, whether or
    /// not it is active there (it verifies only if it is). Useful to audit history.
    pub fn prove_location(&self, version: u64, loc: u64) -> Result<Proof, Error> {
        self.live()?;
        let n = self.record(version)?.info.op_count;
        if loc < self.log.base() || loc >= n {
            return Err(Error::Corrupt(format!(
                "location {loc} not provable at version {version}"
            )));
        }
        let peaks = self.mmr.peaks_at(n);
        let levels = if version == self.version() {
            None
        } else {
            Some(self.historical_levels(version, n))
        };
        self.op_witness(version, n, peaks, levels.as_ref(), loc)
    }

    fn op_witness(
        &self,
        version: u64,
        n: u64,
        peaks: Vec<Hash>,
        levels: Option<&Vec<Vec<Hash>>>,
        loc: u64,
    ) -> Result<Proof, Error> {
        let op = Op::decode(&self.log.read(loc)?)?;
        if !matches!(op, Op::Update { .. }) {
            return Err(Error::Corrupt(format!("location {loc} is not an update")));
        }
        let mmr_path = self
            .mmr
            .path(n, loc)
            .ok_or_else(|| Error::Corrupt("missing mmr nodes".into()))?;
        let ci = loc / CHUNK_BITS;
        let (chunk, bitmap_path) = match levels {
            None => (self.bitmap.chunk(ci), self.bitmap.path(loc)),
            Some(l) => (self.chunk_at(version, n, ci), path_in(l, ci)),
        };
        Ok(Proof {
            op_count: n,
            peaks,
            witness: Witness::Op {
                loc,
                op,
                mmr_path,
                chunk,
                bitmap_path,
            },
        })
    }

    fn historical_chunks(&self, version: u64, n: u64) -> Vec<Chunk> {
        let mut chunks = self.bitmap.truncated_chunks(n);
        let oldest = self.oldest_version();
        for rec in self
            .records
            .iter()
            .skip((version + 1 - oldest) as usize)
            .rev()
        {
            for (&i, c) in &rec.undo_chunks {
                if (i as usize) < chunks.len() {
                    chunks[i as usize] = *c;
                }
            }
        }
        if let Some(last) = chunks.last_mut()
            && !n.is_multiple_of(CHUNK_BITS)
        {
            for b in (n % CHUNK_BITS)..CHUNK_BITS {
                last[(b / 8) as usize] &= !(1 << (b % 8));
            }
        }
        chunks
    }

    fn chunk_at(&self, version: u64, n: u64, ci: u64) -> Chunk {
        self.historical_chunks(version, n)[ci as usize]
    }

    fn historical_levels(&self, version: u64, n: u64) -> Vec<Vec<Hash>> {
        build_levels(&self.historical_chunks(version, n), bitmap_depth(n))
    }

    // ----- rewind -----

    /// Drops every committed version newer than `version`, which must be retained
    /// (`oldest_version() <= version <= version()`, else `VersionUnavailable`); pending writes
    /// and open checkpoints are discarded too. Afterwards the store is exactly as it was right
    /// after `version` was committed: same root, contents, history window below it and proofs,
    /// and the next commit becomes `version + 1` again. Rewinding to the latest version only
    /// discards pending writes.
    ///
    /// Crash safety: the cut is first recorded in `rewind.bin` (temp file, fsync, rename, fsync
    /// dir); from then on the rewind is decided and [`Db::open`] completes an interrupted one
    /// before anything else. So a `kill -9` at any moment reopens at either the old head or
    /// `version`. An I/O error on the way poisons the store (reopen to recover).
    pub fn rewind(&mut self, version: u64) -> Result<CommitInfo, Error> {
        self.live()?;
        if self.poisoned {
            return Err(Error::Poisoned);
        }
        let target = self.record(version)?.info;
        self.discard_pending();
        if version == self.version() {
            return Ok(target);
        }
        let n = target.op_count;
        self.poisoned = true; // cleared on success
        // 1. durable: decide (marker), cut, forget the marker.
        let cut = self.log.cut_point(n)?;
        write_rewind_marker(&self.dir, version, n, cut)?;
        self.log.truncate(n, cut, version + 1)?;
        fs::remove_file(self.dir.join(REWIND_FILE))?;
        sync_dir(&self.dir)?;
        // 2. memory: undo the dropped versions, newest first.
        let keep = (version - self.oldest_version() + 1) as usize;
        let dropped: Vec<Record> = self.records.drain(keep..).collect();
        let chunk_count = self.bitmap.len().div_ceil(CHUNK_BITS);
        let mut seen: HashMap<&IKey, ()> = HashMap::new();
        let mut flipped: Vec<&IKey> = Vec::new();
        for rec in dropped.iter().rev() {
            for (&ci, c) in &rec.undo_chunks {
                if ci < chunk_count {
                    self.bitmap.set_chunk(ci, *c);
                }
            }
            seen.clear();
            for (key, prior) in &rec.undo_keys {
                if seen.insert(key, ()).is_some() {
                    continue;
                }
                match *prior {
                    Some(p) => {
                        let (slot, was) = self.keys.upsert(key, p);
                        self.keys.loc_slot[(p - self.keys.base) as usize] = slot;
                        if was.is_none() {
                            flipped.push(key);
                        }
                    }
                    None => {
                        if self.keys.remove(key.as_slice()).is_some() {
                            flipped.push(key);
                        }
                    }
                }
            }
        }
        // Successor links around every key whose liveness changed (as in a commit).
        for key in flipped {
            self.keys.relink(key.as_slice());
        }
        self.keys.loc_slot.truncate((n - self.keys.base) as usize);
        self.bitmap.truncate(n);
        self.bitmap.merkleize();
        if !self.mmr.truncate(n) {
            return Err(Error::Corrupt("rewind below the pruned MMR prefix".into()));
        }
        self.floor = target.floor;
        let root = state_root(n, &self.mmr.root(), &self.bitmap.root());
        if root != target.root || self.keys.len() != target.active_keys {
            return Err(Error::Corrupt(
                "state after rewind differs from the recorded version".into(),
            ));
        }
        self.poisoned = false;
        Ok(target)
    }

    // ----- pruning -----

    /// Deletes log segments that hold only operations older than the retained window. Returns
    /// the number of bytes freed.
    pub fn prune(&mut self) -> Result<u64, Error> {
        self.live()?;
        let boundary = self.records.front().expect("record").info.floor;
        let Some(start) = self.log.prune_point(boundary) else {
            return Ok(0);
        };
        let before = self.log.disk_bytes();
        write_pinned(&self.dir, start, &self.mmr.peaks_at(start))?;
        self.log.drop_before(start)?;
        self.mmr.prune(start);
        self.keys.prune(start);
        Ok(before - self.log.disk_bytes())
    }
}

/// Clears `prior`'s bit (recording the chunk for undo), appends the new bit, records the key.
fn apply_bits(bitmap: &mut Bitmap, rec: &mut Record, key: IKey, prior: Option<u64>, active: bool) {
    if let Some(p) = prior {
        let ci = p / CHUNK_BITS;
        rec.undo_chunks
            .entry(ci)
            .or_insert_with(|| bitmap.chunk(ci));
        bitmap.set(p, false);
    }
    bitmap.push(active);
    rec.undo_keys.push((key, prior));
}

/// Starts an operation record (`u32 len | bytes`) at the end of `frame`; returns its offset.
fn begin_op(frame: &mut Vec<u8>, rel: &mut Vec<u64>) -> usize {
    let start = frame.len();
    rel.push(start as u64);
    frame.extend_from_slice(&[0; 4]);
    start
}

/// Fills in the length of the operation record started at `start`.
fn end_op(frame: &mut [u8], start: usize) {
    let n = (frame.len() - start - 4) as u32;
    frame[start..start + 4].copy_from_slice(&n.to_le_bytes());
}

/// The key of an encoded `Update` without decoding the rest.
fn update_key(bytes: &[u8]) -> Result<&[u8], Error> {
    let mut r = Reader { buf: bytes, pos: 0 };
    if r.u8()? != 0x01 {
        return Err(Error::Corrupt("active location is not an update".into()));
    }
    let n = r.u32()? as usize;
    r.take(n)
}

/// State loaded from a snapshot.
struct Loaded {
    log: Log,
    mmr: Mmr,
    bitmap: Bitmap,
    keys: KeyIndex,
    floor: u64,
    records: VecDeque<Record>,
}

impl Loaded {
    /// Builds the store state from snapshot data `d`, or `None` when the data does not match
    /// the directory (then the caller replays the log).
    fn from_snapshot(
        dir: &Path,
        cfg: &Config,
        pruned: u64,
        d: snapshot::Data,
    ) -> Result<Option<Loaded>, Error> {
        let leaves = d.mmr_leaves;
        if d.log_base != pruned
            || d.mmr_pruned != pruned
            || d.bitmap_len != leaves
            || d.offsets.len() as u64 != leaves - pruned.min(leaves)
            || d.floor < pruned
            || d.floor > leaves
        {
            return Ok(None);
        }
        let Some(log) = Log::open_raw(
            dir,
            cfg.segment_bytes,
            d.log_base,
            d.next_version,
            &d.segments,
            d.offsets,
        )?
        else {
            return Ok(None);
        };
        let (Some(mmr), Some(mut bitmap)) = (
            Mmr::from_raw(leaves, d.mmr_pruned, d.mmr_nodes, d.mmr_pinned),
            Bitmap::from_raw(d.bitmap_len, d.chunks),
        ) else {
            return Ok(None);
        };
        bitmap.merkleize();
        let root = state_root(leaves, &mmr.root(), &bitmap.root());
        if root != d.root || log.last_root()? != Some(root) {
            return Ok(None);
        }
        // The index must name exactly the set bits.
        let set: u64 = bitmap_ones(&bitmap);
        if set != d.index.len() as u64 {
            return Ok(None);
        }
        if d.index
            .iter()
            .any(|&(_, loc)| loc < d.floor || loc >= leaves || !bitmap.get(loc))
        {
            return Ok(None);
        }
        let Some(keys) = KeyIndex::from_sorted(d.index, pruned, leaves, cfg.index_fingerprint_bits)
        else {
            return Ok(None);
        };
        let mut records = VecDeque::with_capacity(d.records.len());
        for r in d.records {
            let (version, root, op_count, floor, active_keys) = r.info;
            records.push_back(Record {
                info: CommitInfo {
                    version,
                    root,
                    op_count,
                    floor,
                    active_keys,
                },
                undo_keys: r.undo_keys,
                undo_map: OnceLock::new(),
                undo_chunks: r.undo_chunks.into_iter().collect(),
            });
        }
        let consistent = records.back().is_some_and(|r| {
            r.info.version == d.version
                && r.info.root == root
                && r.info.op_count == leaves
                && r.info.active_keys == keys.len()
        }) && records
            .iter()
            .zip(records.iter().skip(1))
            .all(|(a, b)| a.info.version + 1 == b.info.version)
            && d.next_version == d.version + 1;
        if !consistent {
            return Ok(None);
        }
        while records.len() as u64 > cfg.history {
            records.pop_front();
        }
        if let Some(front) = records.front_mut() {
            front.forget_undo();
        }
        Ok(Some(Loaded {
            log,
            mmr,
            bitmap,
            keys,
            floor: d.floor,
            records,
        }))
    }
}

fn bitmap_ones(b: &Bitmap) -> u64 {
    b.raw()
        .1
        .iter()
        .flat_map(|c| c.iter())
        .map(|x| u64::from(x.count_ones()))
        .sum()
}

/// Replay state used while opening.
struct Replay {
    mmr: Mmr,
    bitmap: Bitmap,
    keys: KeyIndex,
    floor: u64,
    records: VecDeque<Record>,
    history: u64,
    last_root: Option<Hash>,
    pruned: u64,
}

impl Replay {
    fn frame(&mut self, f: FrameView<'_>) -> Result<(), Error> {
        let mut rec = Record::default();
        let mut committed = None;
        let first = self.mmr.leaves();
        for (i, bytes) in f.ops.iter().enumerate() {
            let op = Op::decode(bytes)?;
            let loc = first + i as u64;
            match op {
                Op::Update { key, .. } => {
                    let key = IKey::new(&key);
                    let (slot, prior) = self.keys.upsert(&key, loc);
                    self.keys.loc_slot.push(slot);
                    apply_bits(&mut self.bitmap, &mut rec, key, prior, true);
                }
                Op::Delete { key } => {
                    let key = IKey::new(&key);
                    let prior = self.keys.remove(key.as_slice());
                    self.keys.loc_slot.push(NO_SLOT);
                    apply_bits(&mut self.bitmap, &mut rec, key, prior, false);
                }
                Op::Commit { floor, active_keys } => {
                    // Before the floor passes the pruned prefix some live keys are still only
                    // in pruned segments, so the count is checked from then on.
                    let complete = floor >= self.pruned;
                    if i + 1 != f.ops.len() || (complete && active_keys != self.keys.len()) {
                        return Err(Error::Corrupt(
                            "misplaced or inconsistent commit operation".into(),
                        ));
                    }
                    self.keys.loc_slot.push(NO_SLOT);
                    self.bitmap.push(false);
                    self.floor = floor;
                    committed = Some(active_keys);
                }
            }
        }
        let Some(active_keys) = committed else {
            return Err(Error::Corrupt("frame without commit operation".into()));
        };
        let mut leaves = vec![[0u8; 32]; f.ops.len()];
        mmr_leaves(&f.ops, &mut leaves);
        self.mmr.push_leaves(&leaves);
        rec.info = CommitInfo {
            version: f.version,
            root: f.root,
            op_count: self.mmr.leaves(),
            floor: self.floor,
            active_keys,
        };
        self.last_root = Some(f.root);
        self.records.push_back(rec);
        while self.records.len() as u64 > self.history {
            self.records.pop_front();
        }
        if let Some(front) = self.records.front_mut() {
            front.forget_undo();
        }
        Ok(())
    }
}

fn read_pinned(dir: &Path) -> Result<(u64, Vec<Hash>), Error> {
    let bytes = match fs::read(dir.join(PINNED_FILE)) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, Vec::new())),
        Err(e) => return Err(e.into()),
    };
    if bytes.len() < 32
        || *blake3::hash(&bytes[..bytes.len() - 32]).as_bytes() != bytes[bytes.len() - 32..]
    {
        return Err(Error::Corrupt("pinned-node file checksum".into()));
    }
    let mut r = Reader {
        buf: &bytes[..bytes.len() - 32],
        pos: 0,
    };
    if r.take(4)? != PINNED_MAGIC {
        return Err(Error::Corrupt("pinned-node file magic".into()));
    }
    let leaves = r.u64()?;
    let n = r.u32()? as usize;
    if n != leaves.count_ones() as usize {
        return Err(Error::Corrupt("pinned-node count".into()));
    }
    let mut peaks = Vec::with_capacity(n);
    for _ in 0..n {
        peaks.push(r.hash()?);
    }
    if !r.done() {
        return Err(Error::Corrupt("pinned-node file trailing bytes".into()));
    }
    Ok((leaves, peaks))
}

/// Atomically replaces the pinned-node file (write temp, fsync, rename, fsync dir).
fn write_pinned(dir: &Path, leaves: u64, peaks: &[Hash]) -> Result<(), Error> {
    let mut b = Vec::new();
    b.extend_from_slice(PINNED_MAGIC);
    b.extend_from_slice(&leaves.to_le_bytes());
    b.extend_from_slice(&(peaks.len() as u32).to_le_bytes());
    for p in peaks {
        b.extend_from_slice(p);
    }
    let sum = *blake3::hash(&b).as_bytes();
    b.extend_from_slice(&sum);
    let tmp = dir.join("pinned.tmp");
    let mut f = File::create(&tmp)?;
    f.write_all(&b)?;
    f.sync_all()?;
    fs::rename(&tmp, dir.join(PINNED_FILE))?;
    sync_dir(dir)
}

/// Records a decided rewind: cut the log at `cut` so it ends with version `version`
/// (`op_count` operations). Atomic (temp file, fsync, rename, fsync dir).
fn write_rewind_marker(
    dir: &Path,
    version: u64,
    op_count: u64,
    cut: (u64, u64),
) -> Result<(), Error> {
    let mut b = Vec::with_capacity(4 + 32 + 32);
    b.extend_from_slice(REWIND_MAGIC);
    for x in [version, op_count, cut.0, cut.1] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    let sum = *blake3::hash(&b).as_bytes();
    b.extend_from_slice(&sum);
    let tmp = dir.join(REWIND_TMP);
    let mut f = File::create(&tmp)?;
    f.write_all(&b)?;
    f.sync_all()?;
    fs::rename(&tmp, dir.join(REWIND_FILE))?;
    sync_dir(dir)
}

/// Completes a rewind interrupted by a crash (see [`Db::rewind`]): applies the recorded cut
/// again (idempotent) and removes the marker. No marker: nothing to do.
fn finish_rewind(dir: &Path) -> Result<(), Error> {
    let bytes = match fs::read(dir.join(REWIND_FILE)) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if bytes.len() != 4 + 32 + 32
        || &bytes[..4] != REWIND_MAGIC
        || *blake3::hash(&bytes[..36]).as_bytes() != bytes[36..]
    {
        return Err(Error::Corrupt("rewind marker checksum".into()));
    }
    let word = |i: usize| u64::from_le_bytes(bytes[4 + 8 * i..12 + 8 * i].try_into().expect("8"));
    apply_cut(dir, (word(2), word(3)))?;
    fs::remove_file(dir.join(REWIND_FILE))?;
    sync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cowboy-qmdb-unit-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn cfg(segment_bytes: u64) -> Config {
        Config {
            history: 8,
            segment_bytes,
            auto_prune: true,
            index_fingerprint_bits: 32,
        }
    }

    /// Commits versions 1..=6 (some inserts, updates and deletes); returns the roots by version.
    fn fill(db: &mut Db) -> Vec<Hash> {
        let mut roots = vec![db.root()];
        for v in 1..=6u64 {
            for i in 0..40u64 {
                let k = format!("key{}", (i * 7 + v * 3) % 50);
                if (i + v) % 9 == 0 {
                    db.delete(k.as_bytes()).unwrap();
                } else {
                    db.put(k.as_bytes(), &[v as u8; 20]).unwrap();
                }
            }
            roots.push(db.commit().unwrap().root);
        }
        roots
    }

    /// Simulates a crash (no close snapshot) of `db` after the durable part of a rewind to
    /// `version` got only as far as `stage`: 0 = nothing, 1 = marker written, 2 = marker and
    /// the later segments deleted, 3 = marker and the whole cut done.
    fn crash_mid_rewind(mut db: Db, version: u64, stage: u32) {
        let n = db.commit_info(version).unwrap().op_count;
        let cut = db.log.cut_point(n).unwrap();
        if stage >= 1 {
            write_rewind_marker(&db.dir, version, n, cut).unwrap();
        }
        if stage == 2 {
            let later: Vec<u64> = db
                .log
                .raw()
                .2
                .iter()
                .map(|s| s.0)
                .filter(|&s| s > cut.0)
                .collect();
            if let Some(&s) = later.last() {
                fs::remove_file(db.dir.join(format!("{s:020}.seg"))).unwrap();
            }
        }
        if stage == 3 {
            apply_cut(&db.dir, cut).unwrap();
        }
        db.poisoned = true; // no snapshot on drop, as after a crash
        drop(db);
    }

    #[test]
    fn interrupted_rewind_reopens_at_old_or_new_head() {
        for seg in [1u64, 1 << 20] {
            for stage in 0..=3u32 {
                let d = dir(&format!("rw-{seg}-{stage}"));
                let mut db = Db::open(&d, cfg(seg)).unwrap();
                let roots = fill(&mut db);
                crash_mid_rewind(db, 3, stage);
                let mut db = Db::open(&d, cfg(seg)).unwrap();
                let want = if stage == 0 { 6 } else { 3 };
                assert_eq!(db.version(), want, "segments {seg}, stage {stage}");
                assert_eq!(db.root(), roots[want as usize]);
                assert!(!d.join(REWIND_FILE).exists());
                // the store goes on normally from there
                db.put(b"after", b"x").unwrap();
                let info = db.commit().unwrap();
                assert_eq!(info.version, want + 1);
                drop(db);
                let db = Db::open(&d, cfg(seg)).unwrap();
                assert_eq!(db.root(), info.root);
                drop(db);
                fs::remove_dir_all(&d).unwrap();
            }
        }
    }

    #[test]
    fn rewind_restores_roots_proofs_and_next_commits() {
        let d = dir("rw-same");
        let mut db = Db::open(&d, cfg(4096)).unwrap();
        let roots = fill(&mut db);
        for target in [5u64, 2, 2, 0] {
            if target < db.oldest_version() {
                assert!(matches!(
                    db.rewind(target),
                    Err(Error::VersionUnavailable { .. })
                ));
                continue;
            }
            let info = db.rewind(target).unwrap();
            assert_eq!(info.root, roots[target as usize]);
            assert_eq!(db.version(), target);
            for k in [&b"key1"[..], b"key7", b"nope"] {
                let p = db.prove(k).unwrap();
                assert_eq!(
                    p.verify(&db.root(), k).unwrap(),
                    db.get_committed(k).unwrap()
                );
            }
        }
        // replaying the same blocks from version 0 reaches the same roots again
        let again = fill(&mut db);
        assert_eq!(again, roots);
        drop(db);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn rewind_refuses_closed_and_out_of_window() {
        let d = dir("rw-refuse");
        let mut db = Db::open(
            &d,
            Config {
                history: 2,
                ..cfg(4096)
            },
        )
        .unwrap();
        fill(&mut db);
        assert_eq!(db.oldest_version(), 5);
        assert!(matches!(
            db.rewind(4),
            Err(Error::VersionUnavailable { .. })
        ));
        assert!(matches!(
            db.rewind(7),
            Err(Error::VersionUnavailable { .. })
        ));
        assert_eq!(db.rewind(5).unwrap().version, 5);
        db.close().unwrap();
        assert!(matches!(db.rewind(5), Err(Error::Closed)));
        fs::remove_dir_all(&d).unwrap();
    }
}
