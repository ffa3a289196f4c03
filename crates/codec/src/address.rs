//! 20-byte account / actor addresses (spec §1) and their derivations.

use crate::constants::ADDRESS_SIZE;
use crate::hash::{Hash32, keccak256, keccak256_concat};
use crate::hex::{self, HexError};
use core::fmt;
use core::str::FromStr;

/// A 20-byte address. Ordered byte-wise (the order `additional_signers` must ascend in).
///
/// Text form: `0x` + 40 lowercase hex digits ([`fmt::Display`]); parsing accepts any digit
/// case and does not check EIP-55 checksums.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Address(pub [u8; ADDRESS_SIZE]);

impl Address {
    /// The all-zero address.
    pub const ZERO: Self = Self([0u8; ADDRESS_SIZE]);

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; ADDRESS_SIZE] {
        &self.0
    }

    /// The last 20 bytes of a 32-byte digest (the derivation rule of spec §1.2 and EOAs).
    pub fn from_digest_tail(digest: &Hash32) -> Self {
        let mut a = [0u8; ADDRESS_SIZE];
        a.copy_from_slice(&digest[32 - ADDRESS_SIZE..]);
        Self(a)
    }

    /// The EOA address of an uncompressed secp256k1 public key given as its 64-byte `X ‖ Y`
    /// (without the `0x04` prefix): last 20 bytes of keccak256(X ‖ Y).
    pub fn from_public_key_xy(xy: &[u8; 64]) -> Self {
        Self::from_digest_tail(&keccak256(xy))
    }

    /// True if the address is in the system range `0x0000…0000 ..= 0x0000…0100` (spec §1.3).
    pub fn is_system(&self) -> bool {
        self.0 <= crate::constants::SYSTEM_ADDRESS_MAX
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode_prefixed(&self.0))
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({self})")
    }
}

impl FromStr for Address {
    type Err = HexError;
    /// Parses `0x` + 40 hex digits (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        hex::parse_prefixed_fixed::<ADDRESS_SIZE>(s).map(Self)
    }
}

impl From<[u8; ADDRESS_SIZE]> for Address {
    fn from(b: [u8; ADDRESS_SIZE]) -> Self {
        Self(b)
    }
}

/// `code_hash = keccak256(source)` (spec §1.2). `source` must already be canonical
/// (see [`crate::source::canonical_source`]); this function hashes the bytes as given.
pub fn code_hash(source: &[u8]) -> Hash32 {
    keccak256(source)
}

/// Actor address (spec §1.2): last 20 bytes of keccak256(creator ‖ salt ‖ code_hash).
pub fn actor_address(creator: &Address, salt: &Hash32, code_hash: &Hash32) -> Address {
    Address::from_digest_tail(&keccak256_concat(&[&creator.0, salt, code_hash]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_parse_round_trip() {
        let a = Address([0xab; 20]);
        let s = a.to_string();
        assert_eq!(s, "0xabababababababababababababababababababab");
        assert_eq!(s.parse::<Address>().unwrap(), a);
        assert_eq!(
            s.to_uppercase()
                .replace("0X", "0x")
                .parse::<Address>()
                .unwrap(),
            a
        );
        assert!("0xabab".parse::<Address>().is_err());
        assert!(
            "abababababababababababababababababababab"
                .parse::<Address>()
                .is_err()
        );
    }

    #[test]
    fn system_range() {
        let mut a = [0u8; 20];
        a[18] = 1;
        assert!(Address(a).is_system());
        a[19] = 1;
        assert!(!Address(a).is_system());
        assert!(Address::ZERO.is_system());
    }

    #[test]
    fn actor_address_is_create2_style() {
        let creator = Address([1; 20]);
        let salt = [2u8; 32];
        let ch = code_hash(b"x = 1\n");
        let mut pre = Vec::new();
        pre.extend_from_slice(&creator.0);
        pre.extend_from_slice(&salt);
        pre.extend_from_slice(&ch);
        let expect = keccak256(&pre);
        assert_eq!(actor_address(&creator, &salt, &ch).0, expect[12..]);
        // Any input change moves the address.
        assert_ne!(
            actor_address(&creator, &[3u8; 32], &ch),
            actor_address(&creator, &salt, &ch)
        );
    }
}
