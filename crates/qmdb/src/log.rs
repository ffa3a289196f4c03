//! The durable, segmented, append-only operation log.
//!
//! The log is a sequence of *frames*, one per committed version, stored in segment files named
//! `<first location, 20 digits>.seg`. A frame is
//!
//! ```text
//! "CQF1" | version u64 | first_loc u64 | op_count u32 | body_len u64
//! body: op_count × (u32 len | operation bytes)
//! root (32) | checksum (32) = blake3(everything from "CQF1" through root)
//! ```
//!
//! A frame is written with one `write` and made durable with `fdatasync` before the commit
//! returns. On open, the last segment is scanned and cut after its last complete, checksummed
//! frame, so a crash at any moment leaves exactly the frames that were fully written. Segments
//! are only ever appended to, rotated at frame boundaries, and deleted oldest first.

use crate::Error;
use crate::hash::Hash;
use crate::op::Reader;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"CQF1";
const HEADER: usize = 4 + 8 + 8 + 4 + 8;
const TRAILER: usize = 64;

/// One frame handed to the replay callback on open.
#[derive(Debug)]
pub struct FrameView<'a> {
    /// Version committed by the frame.
    pub version: u64,
    /// Location of the first operation.
    pub first_loc: u64,
    /// Encoded operations, in order.
    pub ops: Vec<&'a [u8]>,
    /// State root recorded by the writer.
    pub root: Hash,
}

#[derive(Debug)]
struct Segment {
    file: File,
    len: u64,
}

/// The log. Invariant: `offsets[i]` is the byte offset (within its segment) of the length prefix
/// of operation `off_first + i` (`off_first <= base`: the entries below `base` are dead and
/// dropped lazily, see [`Log::drop_before`]), and `next_loc == off_first + offsets.len()`.
#[derive(Debug)]
pub struct Log {
    dir: PathBuf,
    segment_bytes: u64,
    segments: BTreeMap<u64, Segment>,
    offsets: Vec<u64>,
    off_first: u64,
    base: u64,
    next_loc: u64,
    next_version: u64,
    ahead: ReadAhead,
}

#[derive(Debug, Default)]
struct ReadAhead {
    seg: u64,
    off: u64,
    buf: Vec<u8>,
}

fn seg_name(first: u64) -> String {
    format!("{first:020}.seg")
}

/// Fsyncs a directory so that file creations, renames and deletions in it are durable.
pub fn sync_dir(dir: &Path) -> Result<(), Error> {
    File::open(dir)?.sync_all()?;
    Ok(())
}

impl Log {
    /// Opens (or creates) the log in `dir`, replaying every frame through `replay` in order.
    /// Frames before `min_loc` (pruned history whose segment deletion was interrupted) are
    /// removed first. Returns the log positioned after the last complete frame.
    pub fn open(
        dir: &Path,
        segment_bytes: u64,
        min_loc: u64,
        mut replay: impl FnMut(FrameView<'_>) -> Result<(), Error>,
    ) -> Result<Log, Error> {
        let mut starts = Vec::new();
        for entry in fs::read_dir(dir)? {
            let name = entry?.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(stem) = name.strip_suffix(".seg") {
                let start: u64 = stem
                    .parse()
                    .map_err(|_| Error::Corrupt(format!("bad segment name {name}")))?;
                starts.push(start);
            }
        }
        starts.sort_unstable();
        // Finish an interrupted prune: segments wholly before `min_loc` are garbage.
        while starts.len() > 1 && starts[1] <= min_loc {
            fs::remove_file(dir.join(seg_name(starts[0])))?;
            starts.remove(0);
        }
        let base = starts.first().copied().unwrap_or(min_loc);
        if base != min_loc {
            return Err(Error::Corrupt(format!(
                "log starts at {base}, pinned state expects {min_loc}"
            )));
        }
        let mut log = Log {
            dir: dir.to_path_buf(),
            segment_bytes,
            segments: BTreeMap::new(),
            offsets: Vec::new(),
            off_first: base,
            base,
            next_loc: base,
            next_version: 0,
            ahead: ReadAhead::default(),
        };
        let mut first_frame = true;
        for (i, &start) in starts.iter().enumerate() {
            let last = i + 1 == starts.len();
            let path = dir.join(seg_name(start));
            let bytes = fs::read(&path)?;
            if start != log.next_loc {
                return Err(Error::Corrupt(format!(
                    "segment {start} does not follow {}",
                    log.next_loc
                )));
            }
            let mut pos = 0usize;
            while pos < bytes.len() {
                match parse_frame(&bytes[pos..]) {
                    Ok((frame, used, rel_offsets)) => {
                        if frame.first_loc != log.next_loc
                            || (!first_frame && frame.version != log.next_version)
                        {
                            return Err(Error::Corrupt(format!(
                                "frame of version {} at loc {} out of order",
                                frame.version, frame.first_loc
                            )));
                        }
                        first_frame = false;
                        log.next_version = frame.version + 1;
                        log.next_loc += frame.ops.len() as u64;
                        log.offsets
                            .extend(rel_offsets.iter().map(|o| pos as u64 + o));
                        replay(frame)?;
                        pos += used;
                    }
                    Err(e) if !last => return Err(e),
                    Err(_) => break,
                }
            }
            let file = OpenOptions::new().read(true).append(true).open(&path)?;
            if pos < bytes.len() {
                // Torn tail of the last segment: cut it off durably.
                file.set_len(pos as u64)?;
                file.sync_all()?;
            }
            log.segments.insert(
                start,
                Segment {
                    file,
                    len: pos as u64,
                },
            );
        }
        if log.segments.is_empty() {
            log.create_segment(base)?;
        }
        Ok(log)
    }

    /// The raw parts `(base, next_version, [(segment start, length)], offsets)`, for the
    /// reopen snapshot.
    pub(crate) fn raw(&self) -> (u64, u64, Vec<(u64, u64)>, &[u64]) {
        (
            self.base,
            self.next_version,
            self.segments.iter().map(|(s, g)| (*s, g.len)).collect(),
            &self.offsets[(self.base - self.off_first) as usize..],
        )
    }

    /// Opens the log from [`Log::raw`] parts without reading it. Returns `Ok(None)` unless the
    /// segment files in `dir` are exactly `segments` with exactly those lengths (any commit,
    /// prune or torn write since the parts were taken changes them).
    pub(crate) fn open_raw(
        dir: &Path,
        segment_bytes: u64,
        base: u64,
        next_version: u64,
        segments: &[(u64, u64)],
        offsets: Vec<u64>,
    ) -> Result<Option<Log>, Error> {
        let mut on_disk = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(stem) = name.strip_suffix(".seg") {
                let Ok(start) = stem.parse::<u64>() else {
                    return Ok(None);
                };
                on_disk.push((start, entry.metadata()?.len()));
            }
        }
        on_disk.sort_unstable();
        if on_disk != segments || segments.first().map(|s| s.0) != Some(base) {
            return Ok(None);
        }
        let mut map = BTreeMap::new();
        for &(start, len) in segments {
            let file = OpenOptions::new()
                .read(true)
                .append(true)
                .open(dir.join(seg_name(start)))?;
            map.insert(start, Segment { file, len });
        }
        Ok(Some(Log {
            dir: dir.to_path_buf(),
            segment_bytes,
            segments: map,
            next_loc: base + offsets.len() as u64,
            offsets,
            off_first: base,
            base,
            next_version,
            ahead: ReadAhead::default(),
        }))
    }

    /// The root recorded in the last frame (the 32 bytes before the last checksum), if any.
    pub(crate) fn last_root(&self) -> Result<Option<Hash>, Error> {
        let Some((_, seg)) = self.segments.iter().rev().find(|(_, s)| s.len >= 64) else {
            return Ok(None);
        };
        let mut root = [0u8; 32];
        seg.file.read_exact_at(&mut root, seg.len - 64)?;
        Ok(Some(root))
    }

    fn create_segment(&mut self, start: u64) -> Result<(), Error> {
        let path = self.dir.join(seg_name(start));
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        file.sync_all()?;
        sync_dir(&self.dir)?;
        self.segments.insert(start, Segment { file, len: 0 });
        Ok(())
    }

    /// First location still stored.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Resets `buf` to a new frame: header-sized reserved bytes, to be followed by the
    /// operations, each as `u32 len | bytes`. Reusing one buffer avoids a large allocation per
    /// commit.
    pub fn reset_frame(buf: &mut Vec<u8>) {
        buf.clear();
        buf.resize(HEADER, 0);
    }

    /// Fills in the header of a frame that received all its operations (`rel` holds each
    /// operation's offset within `frame`) as the next frame, of `version`. After this the
    /// frame's bytes up to the trailer are final: a [`FrameSum`] may absorb them (possibly on
    /// another thread) while the root is computed.
    pub fn seal_header(&self, version: u64, frame: &mut [u8], rel: &[u64]) {
        let body_len = (frame.len() - HEADER) as u64;
        let h = &mut frame[..HEADER];
        h[..4].copy_from_slice(MAGIC);
        h[4..12].copy_from_slice(&version.to_le_bytes());
        h[12..20].copy_from_slice(&self.next_loc.to_le_bytes());
        h[20..24].copy_from_slice(&(rel.len() as u32).to_le_bytes());
        h[24..32].copy_from_slice(&body_len.to_le_bytes());
    }

    /// Writes one frame durably. `frame` was reset by [`Log::reset_frame`], then received the
    /// operations and was sealed by [`Log::seal_header`] with the same `version` and `rel`;
    /// `sum` absorbed exactly those bytes. Root and checksum are appended to `frame` in place.
    pub fn append_frame(
        &mut self,
        version: u64,
        frame: &mut Vec<u8>,
        rel: &[u64],
        root: &Hash,
        mut sum: FrameSum,
    ) -> Result<(), Error> {
        debug_assert_eq!(
            sum.absorbed,
            frame.len(),
            "checksum covers the sealed frame"
        );
        debug_assert_eq!(
            &frame[4..12],
            &version.to_le_bytes(),
            "sealed for this version"
        );
        let (&last_start, last) = self
            .segments
            .iter()
            .next_back()
            .expect("always one segment");
        if last.len >= self.segment_bytes && last_start != self.next_loc {
            self.create_segment(self.next_loc)?;
        }
        frame.extend_from_slice(root);
        sum.hasher.update(root);
        frame.extend_from_slice(sum.hasher.finalize().as_bytes());
        let seg = self
            .segments
            .values_mut()
            .next_back()
            .expect("always one segment");
        seg.file.write_all(frame)?;
        seg.file.sync_data()?;
        let start = seg.len;
        seg.len += frame.len() as u64;
        self.offsets.extend(rel.iter().map(|o| start + o));
        self.next_loc += rel.len() as u64;
        self.next_version = version + 1;
        Ok(())
    }

    /// Like [`Log::read`] but served from a read-ahead buffer (for sequential scans: the
    /// floor), and appending the operation bytes to `out` instead of allocating.
    pub fn read_seq_into(&mut self, loc: u64, out: &mut Vec<u8>) -> Result<(), Error> {
        if loc < self.base || loc >= self.next_loc {
            return Err(Error::Corrupt(format!("location {loc} not stored")));
        }
        let (&seg_start, seg) = self
            .segments
            .range(..=loc)
            .next_back()
            .expect("segment covering loc");
        let off = self.offsets[(loc - self.off_first) as usize];
        let ra = &mut self.ahead;
        let hit = |ra: &ReadAhead| -> Option<(usize, usize)> {
            if ra.seg != seg_start || off < ra.off || off + 4 > ra.off + ra.buf.len() as u64 {
                return None;
            }
            let i = (off - ra.off) as usize;
            let n = u32::from_le_bytes(ra.buf[i..i + 4].try_into().expect("4 bytes")) as usize;
            (i + 4 + n <= ra.buf.len()).then_some((i + 4, i + 4 + n))
        };
        if hit(ra).is_none() {
            let want = (seg.len - off).min(1 << 20) as usize;
            ra.buf.resize(want, 0);
            seg.file.read_exact_at(&mut ra.buf, off)?;
            ra.seg = seg_start;
            ra.off = off;
        }
        match hit(ra) {
            Some((a, b)) => {
                out.extend_from_slice(&ra.buf[a..b]);
                Ok(())
            }
            None => {
                out.extend_from_slice(&self.read(loc)?);
                Ok(())
            }
        }
    }

    /// Reads the encoded operation at `loc` (`base <= loc < next_loc`).
    pub fn read(&self, loc: u64) -> Result<Vec<u8>, Error> {
        if loc < self.base || loc >= self.next_loc {
            return Err(Error::Corrupt(format!("location {loc} not stored")));
        }
        let (_, seg) = self
            .segments
            .range(..=loc)
            .next_back()
            .expect("segment covering loc");
        let off = self.offsets[(loc - self.off_first) as usize];
        let mut head = [0u8; 256];
        let avail = (seg.len - off).min(256) as usize;
        seg.file.read_exact_at(&mut head[..avail], off)?;
        if avail < 4 {
            return Err(Error::Corrupt("short operation record".into()));
        }
        let n = u32::from_le_bytes(head[..4].try_into().expect("4 bytes")) as usize;
        if n + 4 <= avail {
            return Ok(head[4..4 + n].to_vec());
        }
        let mut out = vec![0u8; n];
        seg.file.read_exact_at(&mut out, off + 4)?;
        Ok(out)
    }

    /// Where the log must be cut so that operation `loc` (`base <= loc < next_loc`, the first
    /// operation of a frame) and everything after it disappear: `(segment start, byte length to
    /// keep in that segment)`. Later segments are dropped whole.
    pub fn cut_point(&self, loc: u64) -> Result<(u64, u64), Error> {
        if loc < self.base || loc >= self.next_loc {
            return Err(Error::Corrupt(format!("location {loc} not stored")));
        }
        let (&start, _) = self
            .segments
            .range(..=loc)
            .next_back()
            .expect("segment covering loc");
        let off = self.offsets[(loc - self.off_first) as usize];
        let keep = off
            .checked_sub(HEADER as u64)
            .ok_or_else(|| Error::Corrupt(format!("location {loc} is not first in its frame")))?;
        Ok((start, keep))
    }

    /// Durably cuts the log at `cut` (from [`Log::cut_point`] of `loc`): later segments are
    /// deleted newest first, the segment of `cut` is truncated, and the log then ends before
    /// `loc`, with `next_version` as the version of the next frame. Crash safety is the
    /// caller's (see `Db::rewind`: a marker file makes a half-done cut finish on open).
    pub fn truncate(&mut self, loc: u64, cut: (u64, u64), next_version: u64) -> Result<(), Error> {
        apply_cut(&self.dir, cut)?;
        let later: Vec<u64> = self.segments.range(cut.0 + 1..).map(|(s, _)| *s).collect();
        for s in later {
            self.segments.remove(&s);
        }
        let seg = self
            .segments
            .get_mut(&cut.0)
            .ok_or_else(|| Error::Corrupt("cut segment missing".into()))?;
        seg.len = cut.1;
        self.offsets.truncate((loc - self.off_first) as usize);
        self.next_loc = loc;
        self.next_version = next_version;
        self.ahead = ReadAhead::default();
        Ok(())
    }

    /// The start of the segment that would become the first one if everything before `loc`
    /// were dropped, when that is later than the current base.
    pub fn prune_point(&self, loc: u64) -> Option<u64> {
        let (&start, _) = self.segments.range(..=loc).next_back()?;
        (start > self.base).then_some(start)
    }

    /// Deletes every segment before `start` (a value returned by [`Log::prune_point`]).
    pub fn drop_before(&mut self, start: u64) -> Result<(), Error> {
        let old: Vec<u64> = self.segments.range(..start).map(|(s, _)| *s).collect();
        for s in old {
            self.segments.remove(&s);
            fs::remove_file(self.dir.join(seg_name(s)))?;
        }
        sync_dir(&self.dir)?;
        self.ahead = ReadAhead::default();
        // Dropping the dead prefix moves every retained offset: do it only once the dead part
        // is at least as large as the live one (amortized O(1) per operation).
        let dead = (start - self.off_first) as usize;
        if dead * 2 >= self.offsets.len() {
            self.offsets.drain(..dead);
            self.off_first = start;
        }
        self.base = start;
        Ok(())
    }

    /// Bytes used by the segments.
    pub fn disk_bytes(&self) -> u64 {
        self.segments.values().map(|s| s.len).sum()
    }

    /// Number of segment files.
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }
}

/// Applies a log cut to the files in `dir`: deletes every segment starting after `cut.0`
/// (newest first), truncates segment `cut.0` to `cut.1` bytes if it is longer, and makes both
/// durable. Idempotent, so an interrupted cut can simply be applied again.
pub fn apply_cut(dir: &Path, cut: (u64, u64)) -> Result<(), Error> {
    let mut later = Vec::new();
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(stem) = name.strip_suffix(".seg")
            && let Ok(start) = stem.parse::<u64>()
            && start > cut.0
        {
            later.push(start);
        }
    }
    later.sort_unstable();
    for s in later.into_iter().rev() {
        fs::remove_file(dir.join(seg_name(s)))?;
    }
    let path = dir.join(seg_name(cut.0));
    let file = OpenOptions::new().write(true).open(&path)?;
    if file.metadata()?.len() > cut.1 {
        file.set_len(cut.1)?;
    }
    file.sync_all()?;
    sync_dir(dir)
}

/// The running checksum of a frame being written: blake3 of everything before the checksum
/// itself (header, operations, root). Absorbing the sealed header and operations does not need
/// the root, so the commit hashes them on a second thread while the root is computed.
pub struct FrameSum {
    hasher: blake3::Hasher,
    absorbed: usize,
}

impl FrameSum {
    /// The checksum state after `sealed` (a frame sealed by [`Log::seal_header`]).
    pub fn of(sealed: &[u8]) -> FrameSum {
        let mut hasher = blake3::Hasher::new();
        hasher.update(sealed);
        FrameSum {
            hasher,
            absorbed: sealed.len(),
        }
    }
}

/// Parses one frame at the start of `buf`: the frame, its length, and op offsets relative to
/// the frame start (pointing at each op's length prefix).
fn parse_frame(buf: &[u8]) -> Result<(FrameView<'_>, usize, Vec<u64>), Error> {
    let mut r = Reader { buf, pos: 0 };
    if r.take(4)? != MAGIC {
        return Err(Error::Corrupt("bad frame magic".into()));
    }
    let version = r.u64()?;
    let first_loc = r.u64()?;
    let count = r.u32()? as usize;
    let body_len = r.u64()?;
    let total = (HEADER as u64)
        .checked_add(body_len)
        .and_then(|x| x.checked_add(TRAILER as u64));
    let total = match total {
        Some(t) if t <= buf.len() as u64 => t as usize,
        _ => return Err(Error::Corrupt("truncated frame".into())),
    };
    let sum: [u8; 32] = buf[total - 32..total].try_into().expect("32 bytes");
    if *blake3::hash(&buf[..total - 32]).as_bytes() != sum {
        return Err(Error::Corrupt("frame checksum mismatch".into()));
    }
    let mut body = Reader {
        buf: &buf[HEADER..HEADER + body_len as usize],
        pos: 0,
    };
    let mut ops = Vec::with_capacity(count);
    let mut rel = Vec::with_capacity(count);
    for _ in 0..count {
        rel.push((HEADER + body.pos) as u64);
        let n = body.u32()? as usize;
        ops.push(body.take(n)?);
    }
    if !body.done() {
        return Err(Error::Corrupt("trailing bytes in frame body".into()));
    }
    let root: Hash = buf[total - 64..total - 32].try_into().expect("32 bytes");
    Ok((
        FrameView {
            version,
            first_loc,
            ops,
            root,
        },
        total,
        rel,
    ))
}
