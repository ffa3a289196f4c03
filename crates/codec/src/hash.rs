//! Keccak-256 (the original Keccak padding used by Ethereum, not NIST SHA3-256).

use tiny_keccak::{Hasher, Keccak};

/// A 32-byte digest.
pub type Hash32 = [u8; crate::constants::HASH_SIZE];

/// keccak256 of one byte string.
pub fn keccak256(data: &[u8]) -> Hash32 {
    keccak256_concat(&[data])
}

/// keccak256 of the concatenation of `parts` (no separators, no length framing).
pub fn keccak256_concat(parts: &[&[u8]]) -> Hash32 {
    let mut k = Keccak::v256();
    for p in parts {
        k.update(p);
    }
    let mut out = [0u8; 32];
    k.finalize(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex;

    #[test]
    fn keccak_of_empty_is_the_known_constant() {
        assert_eq!(
            hex::encode(&keccak256(b"")),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
    }

    #[test]
    fn concat_equals_single_buffer() {
        assert_eq!(keccak256_concat(&[b"ab", b"", b"c"]), keccak256(b"abc"));
    }
}
