//! Hot-path helpers of the state transition (ts/node/src/stf): work on whole blocks in one
//! napi call instead of one call per transaction.
//!
//! * **Packed lists.** A list of byte strings crosses as one `Buffer` holding them back to back
//!   plus a `Uint32Array` of end offsets (`ends[i]` = end of item `i`, ascending, the last one
//!   equal to the buffer's length). Converting one buffer is far cheaper than converting
//!   thousands of small ones.
//! * **Background signature checks.** [`tx_verify_start`] copies the encodings and verifies
//!   them on other threads (every core, like `txVerifyBatch`) while JavaScript goes on
//!   executing the block; [`TxVerifyJob::wait`] joins. The answer is exactly
//!   `txVerifyBatch`'s for the same encodings.
//!
//! Nothing here has consensus meaning of its own: the hashes and roots are those of
//! `cowboy-codec` (`keccak256`, `merkle_root`), byte for byte.

// `mod stf;` is private in lib.rs; in `cargo test` builds napi-derive emits no registration
// code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use cowboy_codec::signing::par_map;
use cowboy_codec::{Canonical, Hash32, Transaction};
use napi::bindgen_prelude::{Buffer, Uint32Array};
use napi_derive::napi;
use std::thread::JoinHandle;

type Result<T> = napi::Result<T, String>;

fn arg(msg: impl ToString) -> napi::Error<String> {
    napi::Error::new("ERR_INVALID_ARG".to_owned(), msg.to_string())
}

/// Splits `data` at `ends` (see the module docs); refuses offsets that go backwards, past
/// the end, or that do not cover `data` exactly.
fn split<'a>(data: &'a [u8], ends: &[u32]) -> Result<Vec<&'a [u8]>> {
    let mut out = Vec::with_capacity(ends.len());
    let mut start = 0usize;
    for (i, &e) in ends.iter().enumerate() {
        let e = e as usize;
        if e < start || e > data.len() {
            return Err(arg(format!(
                "ends[{i}] = {e} is outside {start}..={}",
                data.len()
            )));
        }
        out.push(&data[start..e]);
        start = e;
    }
    if start != data.len() {
        return Err(arg(format!(
            "ends cover {start} of {} bytes of data",
            data.len()
        )));
    }
    Ok(out)
}

/// Signature checks of `items` (primary signer and co-signers, §2.2 (c)/(e)); an entry that
/// does not decode is `false`. The same predicate as `txVerifyBatch`.
fn verify_all<B: AsRef<[u8]> + Sync>(items: &[B]) -> Vec<bool> {
    par_map(items, |b| {
        Transaction::decode(b.as_ref()).is_ok_and(|tx| cowboy_codec::verify(&tx).is_ok())
    })
}

/// keccak256 of every item of a packed list, concatenated (32 bytes per item, in order).
#[napi]
pub fn keccak256_packed(data: Buffer, ends: Uint32Array) -> Result<Buffer> {
    let items = split(&data, &ends)?;
    let mut out = Vec::with_capacity(items.len() * 32);
    for it in items {
        out.extend_from_slice(&cowboy_codec::keccak256(it));
    }
    Ok(out.into())
}

/// keccak256 of `count` items of `stride` bytes each laid back to back in `data`
/// (`data.length` must be `count × stride`); 32 bytes per item, in order.
#[napi]
pub fn keccak256_strided(data: Buffer, stride: u32) -> Result<Buffer> {
    let stride = stride as usize;
    if stride == 0 || !data.len().is_multiple_of(stride) {
        return Err(arg(format!(
            "data of {} bytes is not a whole number of {stride}-byte items",
            data.len()
        )));
    }
    let mut out = Vec::with_capacity(data.len() / stride * 32);
    for it in data.chunks_exact(stride) {
        out.extend_from_slice(&cowboy_codec::keccak256(it));
    }
    Ok(out.into())
}

/// The codec's keccak Merkle root (docs/codec.md §5) of the 32-byte leaves laid back to back
/// in `leaves` (its length must be a multiple of 32; empty = the empty root).
#[napi]
pub fn merkle_root_packed(leaves: Buffer) -> Result<Buffer> {
    if !leaves.len().is_multiple_of(32) {
        return Err(arg(format!(
            "leaves: {} bytes is not a multiple of 32",
            leaves.len()
        )));
    }
    let items: Vec<Hash32> = leaves
        .chunks_exact(32)
        .map(|c| {
            let mut h = [0u8; 32];
            h.copy_from_slice(c);
            h
        })
        .collect();
    Ok(cowboy_codec::merkle_root(&items).to_vec().into())
}

/// The Merkle root of the keccak256 of every item of a packed list: the receipts root from
/// the encoded receipts in one call.
#[napi]
pub fn keccak_merkle_root_packed(data: Buffer, ends: Uint32Array) -> Result<Buffer> {
    let items = split(&data, &ends)?;
    let leaves: Vec<Hash32> = items.iter().map(|b| cowboy_codec::keccak256(b)).collect();
    Ok(cowboy_codec::merkle_root(&leaves).to_vec().into())
}

/// Signature checks running in the background (see [`tx_verify_start`]).
#[napi]
pub struct TxVerifyJob {
    running: Option<JoinHandle<Vec<bool>>>,
    done: Option<Vec<bool>>,
}

impl std::fmt::Debug for TxVerifyJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TxVerifyJob")
            .field("running", &self.running.is_some())
            .finish_non_exhaustive()
    }
}

#[napi]
impl TxVerifyJob {
    /// Blocks until the checks are done; one boolean per encoding, in order (the same as
    /// `txVerifyBatch`). May be called again (returns the same answer).
    #[napi]
    pub fn wait(&mut self) -> Result<Vec<bool>> {
        if let Some(h) = self.running.take() {
            let v = h.join().map_err(|_| {
                napi::Error::new(
                    "ERR_VERIFY_THREAD".to_owned(),
                    "the signature-check thread panicked".to_owned(),
                )
            })?;
            self.done = Some(v);
        }
        Ok(self.done.clone().unwrap_or_default())
    }
}

/// Starts the signature checks of the packed encodings `data`/`ends` on background threads
/// and returns at once; `wait()` on the returned job gives one boolean per encoding. The
/// inputs are copied, so the caller may reuse its buffers. When no thread can be started
/// the checks run before this returns.
#[napi]
pub fn tx_verify_start(data: Buffer, ends: Uint32Array) -> Result<TxVerifyJob> {
    let owned: Vec<Vec<u8>> = split(&data, &ends)?
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    if owned.is_empty() {
        return Ok(TxVerifyJob {
            running: None,
            done: Some(Vec::new()),
        });
    }
    // the closure is only moved into the thread when the spawn succeeds; keep a second
    // handle on the data for the fallback
    let shared = std::sync::Arc::new(owned);
    let for_thread = std::sync::Arc::clone(&shared);
    match std::thread::Builder::new()
        .name("tx-verify".into())
        .spawn(move || verify_all(&for_thread))
    {
        Ok(h) => Ok(TxVerifyJob {
            running: Some(h),
            done: None,
        }),
        Err(_) => Ok(TxVerifyJob {
            running: None,
            done: Some(verify_all(&shared)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_checks_offsets() {
        let d = b"abcdef";
        assert_eq!(
            split(d, &[2, 2, 6]).unwrap(),
            vec![&b"ab"[..], &b""[..], &b"cdef"[..]]
        );
        assert!(split(d, &[3, 2]).is_err());
        assert!(split(d, &[7]).is_err());
        assert!(split(d, &[5]).is_err());
        assert_eq!(split(b"", &[]).unwrap().len(), 0);
    }

    #[test]
    fn verify_all_refuses_garbage() {
        assert_eq!(verify_all(&[vec![1u8, 2, 3], vec![]]), vec![false, false]);
    }
}
