//! secp256k1 transaction signatures (spec §1.1, §2.5; docs/codec.md §4).
//!
//! ECDSA over the 32-byte signing hash (used directly as the prehash), RFC 6979 deterministic
//! nonces, low-S only, layout `r ‖ s ‖ v` with `v` = recovery id 0 or 1. Backed by
//! libsecp256k1 (`secp256k1` crate), measured ~2× faster than `k256` for verify and recover.

use crate::address::Address;
use crate::constants::SECRET_KEY_SIZE;
use crate::error::SigError;
use crate::hash::Hash32;
use crate::transaction::{SignatureBytes, Transaction};
use core::fmt;
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
use secp256k1::{Message, PublicKey};

/// secp256k1 group order n, big-endian.
const N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
];

/// n / 2 (floor), big-endian: the largest valid (low) s.
const HALF_N: [u8; 32] = [
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0,
];

/// A secp256k1 secret key (32 bytes, nonzero, below the group order). Its `Debug` output
/// never shows the key.
#[derive(Clone)]
pub struct SecretKey(secp256k1::SecretKey);

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretKey(address = {})", self.address())
    }
}

impl SecretKey {
    /// Parses 32 big-endian bytes; rejects zero and values ≥ n.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SigError> {
        let arr: [u8; SECRET_KEY_SIZE] =
            bytes.try_into().map_err(|_| SigError::InvalidSecretKey)?;
        secp256k1::SecretKey::from_secret_bytes(arr)
            .map(Self)
            .map_err(|_| SigError::InvalidSecretKey)
    }

    /// The EOA address of this key: last 20 bytes of keccak256(X ‖ Y).
    pub fn address(&self) -> Address {
        address_of(&PublicKey::from_secret_key(&self.0))
    }

    /// Signs a 32-byte prehash: RFC 6979, low-S, returns `r ‖ s ‖ v` with v ∈ {0, 1}.
    pub fn sign_hash(&self, hash: &Hash32) -> SignatureBytes {
        let sig =
            RecoverableSignature::sign_ecdsa_recoverable(Message::from_digest(*hash), &self.0);
        let (rid, rs) = sig.serialize_compact();
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&rs);
        out[64] = u8::from(rid);
        out
    }
}

fn address_of(pk: &PublicKey) -> Address {
    let full = pk.serialize_uncompressed();
    let mut xy = [0u8; 64];
    xy.copy_from_slice(&full[1..]);
    Address::from_public_key_xy(&xy)
}

fn is_zero(b: &[u8]) -> bool {
    b.iter().all(|x| *x == 0)
}

/// Recovers the address that produced `sig` over `hash`, enforcing r, s ∈ [1, n-1],
/// s ≤ n/2 and v ∈ {0, 1}. `field` names the signature in errors.
pub fn recover_hash(hash: &Hash32, sig: &SignatureBytes, field: &str) -> Result<Address, SigError> {
    let (r, s, v) = (&sig[..32], &sig[32..64], sig[64]);
    let invalid = || SigError::InvalidSignature {
        field: field.to_owned(),
    };
    if v > 1 {
        return Err(SigError::InvalidRecoveryId {
            field: field.to_owned(),
            v,
        });
    }
    if is_zero(r) || is_zero(s) || r >= &N[..] {
        return Err(invalid());
    }
    if s > &HALF_N[..] {
        return Err(SigError::HighS {
            field: field.to_owned(),
        });
    }
    let rid = RecoveryId::try_from(i32::from(v)).map_err(|_| invalid())?;
    let rs = RecoverableSignature::from_compact(&sig[..64], rid).map_err(|_| invalid())?;
    let pk = rs
        .recover_ecdsa(Message::from_digest(*hash))
        .map_err(|_| invalid())?;
    Ok(address_of(&pk))
}

/// Returns `tx` signed by `key` as its primary signer (additional signatures untouched;
/// they do not enter the signing hash). Fails with [`SigError::FromMismatch`] unless
/// `key`'s address is `tx.from`: the sender is never changed silently.
pub fn sign(tx: &Transaction, key: &SecretKey) -> Result<Transaction, SigError> {
    let key_address = key.address();
    if key_address != tx.from {
        return Err(SigError::FromMismatch { key_address });
    }
    let mut out = tx.clone();
    out.signature = key.sign_hash(&tx.signing_hash());
    Ok(out)
}

/// Returns `tx` with the `additional_signers` entry of `key`'s address signed. Fails with
/// [`SigError::NotASigner`] if that address is not listed.
pub fn sign_additional(tx: &Transaction, key: &SecretKey) -> Result<Transaction, SigError> {
    let key_address = key.address();
    let mut out = tx.clone();
    let entry = out
        .additional_signers
        .iter_mut()
        .find(|s| s.address == key_address)
        .ok_or(SigError::NotASigner { key_address })?;
    entry.signature = key.sign_hash(&tx.signing_hash());
    Ok(out)
}

/// Address recovered from the primary signature (no comparison with `from`).
pub fn recover_signer(tx: &Transaction) -> Result<Address, SigError> {
    recover_hash(&tx.signing_hash(), &tx.signature, "signature")
}

/// Full signature check: the primary signature recovers to `from`, and every additional
/// signature recovers to its listed address, all over the one signing hash.
pub fn verify(tx: &Transaction) -> Result<(), SigError> {
    let hash = tx.signing_hash();
    let recovered = recover_hash(&hash, &tx.signature, "signature")?;
    if recovered != tx.from {
        return Err(SigError::SignerMismatch {
            recovered,
            expected: tx.from,
        });
    }
    for (index, s) in tx.additional_signers.iter().enumerate() {
        let field = format!("additional_signers[{index}].signature");
        let recovered = recover_hash(&hash, &s.signature, &field)?;
        if recovered != s.address {
            return Err(SigError::AdditionalSignerMismatch { index, recovered });
        }
    }
    Ok(())
}

/// Maps `f` over `items` using every core (`std::thread::available_parallelism`), in
/// contiguous chunks under `std::thread::scope`. The output order equals the input order.
/// Small inputs run on the calling thread.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    const MIN_PER_THREAD: usize = 4;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(items.len().div_ceil(MIN_PER_THREAD)).max(1);
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| scope.spawn(move || c.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for h in handles {
            match h.join() {
                Ok(part) => out.extend(part),
                // A panic in `f` is a bug in `f`; surface it on the calling thread.
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        out
    })
}

/// [`verify`] for many transactions, spread over all cores; results in input order.
pub fn verify_batch(txs: &[Transaction]) -> Vec<Result<(), SigError>> {
    par_map(txs, verify)
}

/// [`recover_signer`] for many transactions, spread over all cores; results in input order.
pub fn recover_batch(txs: &[Transaction]) -> Vec<Result<Address, SigError>> {
    par_map(txs, recover_signer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> SecretKey {
        SecretKey::from_bytes(&[b; 32]).unwrap()
    }

    #[test]
    fn key_0x11_has_the_appendix_address() {
        assert_eq!(
            key(0x11).address().to_string(),
            "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
        );
    }

    #[test]
    fn secret_key_rules() {
        assert_eq!(
            SecretKey::from_bytes(&[0; 32]).unwrap_err(),
            SigError::InvalidSecretKey
        );
        assert_eq!(
            SecretKey::from_bytes(&N).unwrap_err(),
            SigError::InvalidSecretKey
        );
        assert!(SecretKey::from_bytes(&[1; 31]).is_err());
        assert!(!format!("{:?}", key(0x11)).contains("1111"));
    }

    #[test]
    fn sign_hash_is_deterministic_low_s_and_recovers() {
        let k = key(0x42);
        for i in 0..50u8 {
            let h = crate::hash::keccak256(&[i]);
            let s1 = k.sign_hash(&h);
            assert_eq!(s1, k.sign_hash(&h));
            assert!(s1[32..64] <= HALF_N[..]);
            assert!(s1[64] <= 1);
            assert_eq!(recover_hash(&h, &s1, "sig").unwrap(), k.address());
        }
    }

    #[test]
    fn signature_range_checks() {
        let k = key(0x42);
        let h = [9u8; 32];
        let good = k.sign_hash(&h);

        let mut bad = good;
        bad[64] = 2;
        assert_eq!(
            recover_hash(&h, &bad, "s").unwrap_err().code(),
            "INVALID_RECOVERY_ID"
        );
        bad[64] = 27;
        assert_eq!(
            recover_hash(&h, &bad, "s").unwrap_err().code(),
            "INVALID_RECOVERY_ID"
        );

        let mut zero_r = good;
        zero_r[..32].fill(0);
        assert_eq!(
            recover_hash(&h, &zero_r, "s").unwrap_err().code(),
            "INVALID_SIGNATURE"
        );
        let mut big_r = good;
        big_r[..32].copy_from_slice(&N);
        assert_eq!(
            recover_hash(&h, &big_r, "s").unwrap_err().code(),
            "INVALID_SIGNATURE"
        );
        let mut zero_s = good;
        zero_s[32..64].fill(0);
        assert_eq!(
            recover_hash(&h, &zero_s, "s").unwrap_err().code(),
            "INVALID_SIGNATURE"
        );

        // The high-S twin (n - s, flipped v) is a valid ECDSA signature, but rejected.
        let mut high = good;
        let s_hi = sub_be(&N, &good[32..64]);
        high[32..64].copy_from_slice(&s_hi);
        high[64] ^= 1;
        assert_eq!(recover_hash(&h, &high, "s").unwrap_err().code(), "HIGH_S");
    }

    /// a - b for 32-byte big-endian a ≥ b.
    fn sub_be(a: &[u8; 32], b: &[u8]) -> [u8; 32] {
        let mut out = [0u8; 32];
        let mut borrow = 0i16;
        for i in (0..32).rev() {
            let mut d = a[i] as i16 - b[i] as i16 - borrow;
            borrow = 0;
            if d < 0 {
                d += 256;
                borrow = 1;
            }
            out[i] = d as u8;
        }
        out
    }

    #[test]
    fn par_map_keeps_order() {
        let v: Vec<u32> = (0..1000).collect();
        assert_eq!(
            par_map(&v, |x| x * 2),
            v.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert_eq!(par_map(&v[..1], |x| *x), vec![0]);
        assert!(par_map(&v[..0], |x| *x).is_empty());
    }
}
