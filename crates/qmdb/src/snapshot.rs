//! The reopen snapshot: on a clean [`crate::Db::close`] the in-memory state (index, activity
//! bitmap, retained MMR nodes, log offsets and the undo records of the history window) is
//! written to `snapshot.bin`, so the next open loads it instead of replaying the whole log.
//!
//! ```text
//! "CQS1" | version u64 | root (32) | floor u64
//! log:    base u64 | next_version u64 | u32 n | n × (segment start u64, length u64)
//!         | u64 m | m × offset u64
//! mmr:    leaves u64 | pruned u64 | u32 p | p × (position u64, hash) | u64 q | q × hash
//! bitmap: len u64 | u64 c | c × chunk (64)
//! index:  u64 k | k × (u16 len | key | loc u64)          (ascending keys)
//! records: u32 r | r × (version u64 | root | op_count u64 | floor u64 | active_keys u64
//!          | u32 a | a × (u16 len | key | u8 has_prior | [prior u64])
//!          | u32 b | b × (chunk index u64 | chunk (64)))
//! blake3 checksum (32) of everything before it
//! ```
//!
//! The snapshot is trusted only if its checksum holds, the segment files on disk are exactly the
//! recorded ones with the recorded lengths (so no frame was committed, pruned or torn since),
//! the root recomputed from the loaded MMR and bitmap equals the recorded root, and that root
//! equals the root stored in the log's last frame. Otherwise it is ignored and the log is
//! replayed. Open deletes it once loaded: it describes exactly one on-disk state.

use crate::Error;
use crate::hash::{Chunk, Hash};
use crate::ikey::IKey;
use crate::op::Reader;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;

/// Snapshot file name inside the store directory.
pub const FILE: &str = "snapshot.bin";
/// Temporary name while writing.
pub const TMP: &str = "snapshot.tmp";
const MAGIC: &[u8; 4] = b"CQS2";

/// One retained version's undo data.
#[derive(Debug, Default)]
pub struct RecordData {
    /// `(version, root, op_count, floor, active_keys)`.
    pub info: (u64, Hash, u64, u64, u64),
    /// Keys changed by the version with their previous location.
    pub undo_keys: Vec<(IKey, Option<u64>)>,
    /// Previous content of changed bitmap chunks.
    pub undo_chunks: Vec<(u64, Chunk)>,
}

/// Everything a snapshot holds.
#[derive(Debug, Default)]
pub struct Data {
    /// Latest committed version.
    pub version: u64,
    /// Its root.
    pub root: Hash,
    /// Inactivity floor.
    pub floor: u64,
    /// First stored log location.
    pub log_base: u64,
    /// Version the next frame gets.
    pub next_version: u64,
    /// `(start, length)` of each segment file.
    pub segments: Vec<(u64, u64)>,
    /// Byte offset of each stored operation within its segment.
    pub offsets: Vec<u64>,
    /// MMR leaves.
    pub mmr_leaves: u64,
    /// MMR pruned leaves.
    pub mmr_pruned: u64,
    /// Pinned peaks.
    pub mmr_pinned: BTreeMap<u64, Hash>,
    /// Nodes from position `size(pruned)`.
    pub mmr_nodes: Vec<Hash>,
    /// Bitmap length in bits.
    pub bitmap_len: u64,
    /// Bitmap chunks.
    pub chunks: Vec<Chunk>,
    /// `(key, loc)` of every live key, ascending.
    pub index: Vec<(IKey, u64)>,
    /// Retained versions, oldest first.
    pub records: Vec<RecordData>,
}

/// A writer that checksums what it writes. Small pieces are gathered in `buf` and hashed and
/// written [`W::BUF`] bytes at a time: blake3 hashes a large, chunk-aligned slice with its
/// multi-chunk SIMD routine, while a few bytes per call would be compressed one block at a time.
struct W {
    out: File,
    h: blake3::Hasher,
    buf: Vec<u8>,
}

impl W {
    /// Bytes gathered before they are hashed and written (a multiple of blake3's 1 KiB chunk).
    const BUF: usize = 1 << 20;

    fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= Self::BUF {
            self.flush()?;
        }
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.h.update(&self.buf);
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.put(&v.to_le_bytes())
    }
    fn u32(&mut self, v: u32) -> std::io::Result<()> {
        self.put(&v.to_le_bytes())
    }
    fn key(&mut self, k: &[u8]) -> std::io::Result<()> {
        self.put(&(k.len() as u16).to_le_bytes())?;
        self.put(k)
    }
}

/// Parts borrowed from the live store for writing.
#[derive(Debug)]
pub struct Parts<'a> {
    /// See [`Data::version`].
    pub version: u64,
    /// See [`Data::root`].
    pub root: Hash,
    /// See [`Data::floor`].
    pub floor: u64,
    /// See [`Data::log_base`].
    pub log_base: u64,
    /// See [`Data::next_version`].
    pub next_version: u64,
    /// See [`Data::segments`].
    pub segments: Vec<(u64, u64)>,
    /// See [`Data::offsets`].
    pub offsets: &'a [u64],
    /// See [`Data::mmr_leaves`].
    pub mmr_leaves: u64,
    /// See [`Data::mmr_pruned`].
    pub mmr_pruned: u64,
    /// See [`Data::mmr_pinned`].
    pub mmr_pinned: &'a BTreeMap<u64, Hash>,
    /// See [`Data::mmr_nodes`].
    pub mmr_nodes: &'a [Hash],
    /// See [`Data::bitmap_len`].
    pub bitmap_len: u64,
    /// See [`Data::chunks`].
    pub chunks: &'a [Chunk],
}

/// Writes the snapshot to `file` (the caller renames it into place). `index` yields the live
/// keys ascending with their locations; `records` the retained versions oldest first as
/// `(info, undo keys, undo chunks)`.
pub fn write<'a>(
    file: File,
    p: &Parts<'_>,
    index_len: u64,
    index: impl Iterator<Item = (&'a [u8], u64)>,
    records: &[RecordData],
) -> Result<File, Error> {
    let mut w = W {
        out: file,
        h: blake3::Hasher::new(),
        buf: Vec::with_capacity(W::BUF + 64 * 1024),
    };
    w.put(MAGIC)?;
    w.u64(p.version)?;
    w.put(&p.root)?;
    w.u64(p.floor)?;
    w.u64(p.log_base)?;
    w.u64(p.next_version)?;
    w.u32(p.segments.len() as u32)?;
    for &(s, l) in &p.segments {
        w.u64(s)?;
        w.u64(l)?;
    }
    w.u64(p.offsets.len() as u64)?;
    for &o in p.offsets {
        w.u64(o)?;
    }
    w.u64(p.mmr_leaves)?;
    w.u64(p.mmr_pruned)?;
    w.u32(p.mmr_pinned.len() as u32)?;
    for (&pos, h) in p.mmr_pinned {
        w.u64(pos)?;
        w.put(h)?;
    }
    w.u64(p.mmr_nodes.len() as u64)?;
    for h in p.mmr_nodes {
        w.put(h)?;
    }
    w.u64(p.bitmap_len)?;
    w.u64(p.chunks.len() as u64)?;
    for c in p.chunks {
        w.put(c)?;
    }
    w.u64(index_len)?;
    let mut n = 0u64;
    for (k, loc) in index {
        w.key(k)?;
        w.u64(loc)?;
        n += 1;
    }
    if n != index_len {
        return Err(Error::Corrupt(
            "index length changed while snapshotting".into(),
        ));
    }
    w.u32(records.len() as u32)?;
    for r in records {
        let (v, root, ops, floor, active) = r.info;
        w.u64(v)?;
        w.put(&root)?;
        w.u64(ops)?;
        w.u64(floor)?;
        w.u64(active)?;
        w.u32(r.undo_keys.len() as u32)?;
        for (k, prior) in &r.undo_keys {
            w.key(k.as_slice())?;
            match prior {
                Some(l) => {
                    w.put(&[1])?;
                    w.u64(*l)?;
                }
                None => w.put(&[0])?,
            }
        }
        w.u32(r.undo_chunks.len() as u32)?;
        for (i, c) in &r.undo_chunks {
            w.u64(*i)?;
            w.put(c)?;
        }
    }
    w.flush()?;
    let sum = *w.h.finalize().as_bytes();
    w.out.write_all(&sum)?;
    w.out.sync_all()?;
    Ok(w.out)
}

fn count(r: &mut Reader<'_>, each: usize) -> Result<usize, Error> {
    let n = r.u64()? as usize;
    // Every element takes at least `each` bytes: a lying count fails before allocating.
    if n.saturating_mul(each) > r.buf.len() - r.pos {
        return Err(Error::Corrupt("snapshot count exceeds file".into()));
    }
    Ok(n)
}

fn key(r: &mut Reader<'_>) -> Result<IKey, Error> {
    let b = r.take(2)?;
    let n = u16::from_le_bytes([b[0], b[1]]) as usize;
    if n == 0 || n > crate::MAX_KEY_LEN {
        return Err(Error::Corrupt("snapshot key length".into()));
    }
    Ok(IKey::new(r.take(n)?))
}

/// Parses and checks a snapshot file's bytes. The checksum is computed on a second thread
/// while this one parses (the parser is total: on any input it returns data or an error,
/// bounding every allocation by the bytes left); the parsed data is returned only if the
/// checksum holds.
pub fn read(bytes: &[u8]) -> Result<Data, Error> {
    if bytes.len() < 36 {
        return Err(Error::Corrupt("snapshot checksum".into()));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 32);
    let check = || *blake3::hash(body).as_bytes() == sum;
    let (sum_ok, parsed) = std::thread::scope(|s| {
        match std::thread::Builder::new().spawn_scoped(s, check) {
            Ok(worker) => {
                let parsed = parse(body);
                let ok = worker
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
                (ok, parsed)
            }
            // No thread available: check first, then parse.
            Err(_) => {
                let ok = check();
                (ok, if ok { parse(body) } else { Ok(Data::default()) })
            }
        }
    });
    if !sum_ok {
        return Err(Error::Corrupt("snapshot checksum".into()));
    }
    parsed
}

/// Parses a snapshot body (the bytes before the checksum).
fn parse(body: &[u8]) -> Result<Data, Error> {
    let mut r = Reader { buf: body, pos: 0 };
    if r.take(4)? != MAGIC {
        return Err(Error::Corrupt("snapshot magic".into()));
    }
    let mut d = Data {
        version: r.u64()?,
        root: r.hash()?,
        floor: r.u64()?,
        log_base: r.u64()?,
        next_version: r.u64()?,
        ..Data::default()
    };
    let segs = r.u32()? as usize;
    for _ in 0..segs.min(1 << 20) {
        d.segments.push((r.u64()?, r.u64()?));
    }
    let n = count(&mut r, 8)?;
    d.offsets.reserve(n);
    for _ in 0..n {
        d.offsets.push(r.u64()?);
    }
    d.mmr_leaves = r.u64()?;
    d.mmr_pruned = r.u64()?;
    let pins = r.u32()?;
    if pins > 64 {
        return Err(Error::Corrupt("snapshot pinned count".into()));
    }
    for _ in 0..pins {
        d.mmr_pinned.insert(r.u64()?, r.hash()?);
    }
    let n = count(&mut r, 32)?;
    d.mmr_nodes.reserve(n);
    for _ in 0..n {
        d.mmr_nodes.push(r.hash()?);
    }
    d.bitmap_len = r.u64()?;
    let n = count(&mut r, crate::hash::CHUNK_BYTES)?;
    d.chunks.reserve(n);
    for _ in 0..n {
        d.chunks.push(r.chunk()?);
    }
    let n = count(&mut r, 11)?;
    d.index.reserve(n);
    for _ in 0..n {
        let k = key(&mut r)?;
        d.index.push((k, r.u64()?));
    }
    if d.index.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(Error::Corrupt("snapshot index not ascending".into()));
    }
    let recs = r.u32()?;
    for _ in 0..recs {
        let info = (r.u64()?, r.hash()?, r.u64()?, r.u64()?, r.u64()?);
        let mut rec = RecordData {
            info,
            ..RecordData::default()
        };
        let a = r.u32()?;
        for _ in 0..a {
            let k = key(&mut r)?;
            let prior = match r.u8()? {
                0 => None,
                1 => Some(r.u64()?),
                _ => return Err(Error::Corrupt("snapshot undo flag".into())),
            };
            rec.undo_keys.push((k, prior));
        }
        let b = r.u32()?;
        for _ in 0..b {
            rec.undo_chunks.push((r.u64()?, r.chunk()?));
        }
        d.records.push(rec);
    }
    if !r.done() {
        return Err(Error::Corrupt("snapshot trailing bytes".into()));
    }
    Ok(d)
}
