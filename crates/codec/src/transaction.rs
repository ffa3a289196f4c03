//! The transaction (spec §2.1) and its frozen canonical layout (spec §2.5, docs/codec.md §2).

use crate::address::Address;
use crate::constants::*;
use crate::error::CodecError;
use crate::hash::{Hash32, keccak256};
use crate::instruction::Instruction;
use crate::wire::*;
use bytes::BufMut;
use commonware_codec::{EncodeSize, Write};

/// A 65-byte secp256k1 signature `r(32) ‖ s(32) ‖ v(1)`, `v` = recovery id 0 or 1.
pub type SignatureBytes = [u8; SIGNATURE_SIZE];

/// The all-zero signature of unsigned transactions and of the signing preimage.
pub const ZERO_SIGNATURE: SignatureBytes = [0u8; SIGNATURE_SIZE];

/// One access-list entry (reserved in v1: carried and hashed, never enforced; spec §2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessListEntry {
    /// Account or actor the transaction intends to touch.
    pub address: Address,
    /// Storage keys of that account (opaque byte strings).
    pub storage_keys: Vec<Vec<u8>>,
}

/// A co-signer of a transaction: its address and its signature over the same signing hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdditionalSigner {
    /// The co-signer's address.
    pub address: Address,
    /// Its signature (`r ‖ s ‖ v`) over [`Transaction::signing_hash`].
    pub signature: SignatureBytes,
}

/// A Cowboy transaction with every field of spec §2.1, in the frozen order of spec §2.5.
///
/// Invariants checked by [`Transaction::decode`] and [`Transaction::validate`]: the
/// instruction's field rules hold, `additional_signers` is strictly ascending by address,
/// and the encoding is at most [`MAX_TX_SIZE`] bytes. Signatures are *not* checked by the
/// codec (see [`crate::signing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// Chain id; bound into the signing hash (replay protection).
    pub chain_id: u64,
    /// Sender nonce.
    pub nonce: u64,
    /// The operation.
    pub instruction: Instruction,
    /// Maximum cycles.
    pub cycles_limit: u64,
    /// Maximum cells.
    pub cells_limit: u64,
    /// Maximum total fee per cycle.
    pub max_fee_per_cycle: u64,
    /// Maximum total fee per cell.
    pub max_fee_per_cell: u64,
    /// Maximum priority tip per cycle.
    pub max_priority_fee_per_cycle: u64,
    /// Maximum priority tip per cell.
    pub max_priority_fee_per_cell: u64,
    /// Sender address.
    pub from: Address,
    /// Optional access list (reserved; v1 ignores it).
    pub access_list: Option<Vec<AccessListEntry>>,
    /// Caller-attached bytes, bound into the signing hash.
    pub metadata: Vec<u8>,
    /// Origin transaction of a system-injected deferred transaction.
    pub origin_tx_hash: Option<Hash32>,
    /// Cycles left from the origin transaction (deferred only).
    pub origin_remaining_cycles: Option<u64>,
    /// Cells left from the origin transaction (deferred only).
    pub origin_remaining_cells: Option<u64>,
    /// Primary signature by `from`.
    pub signature: SignatureBytes,
    /// Co-signers, strictly ascending by address.
    pub additional_signers: Vec<AdditionalSigner>,
}

impl Transaction {
    /// Checks every rule the decoder enforces: instruction field rules, ascending signers,
    /// and the size limit. A value that passes encodes to bytes that decode back to it.
    pub fn validate(&self) -> Result<(), CodecError> {
        self.instruction.validate()?;
        check_ascending(&self.additional_signers)?;
        let size = self.encode_size();
        if size > MAX_TX_SIZE {
            return Err(CodecError::TxTooLarge { size });
        }
        Ok(())
    }

    /// The transaction with the primary and every additional signature zeroed (signer
    /// addresses kept): the signing preimage of spec §2.5.
    pub fn unsigned(&self) -> Self {
        let mut t = self.clone();
        t.signature = ZERO_SIGNATURE;
        for s in &mut t.additional_signers {
            s.signature = ZERO_SIGNATURE;
        }
        t
    }

    /// Signing hash = keccak256(canonical encoding with all signatures zeroed) (spec §2.5).
    pub fn signing_hash(&self) -> Hash32 {
        // Encode once, then zero the signature bytes in place (they sit at known offsets),
        // instead of cloning the whole transaction.
        let mut bytes = self.encode();
        let n_signers = self.additional_signers.len();
        let tail = len_size(n_signers) + n_signers * (ADDRESS_SIZE + SIGNATURE_SIZE);
        let sig_start = bytes.len() - tail - SIGNATURE_SIZE;
        bytes[sig_start..sig_start + SIGNATURE_SIZE].fill(0);
        let mut off = sig_start + SIGNATURE_SIZE + len_size(n_signers);
        for _ in 0..n_signers {
            off += ADDRESS_SIZE;
            bytes[off..off + SIGNATURE_SIZE].fill(0);
            off += SIGNATURE_SIZE;
        }
        keccak256(&bytes)
    }

    /// The transaction digest (identity, tx hash, Merkle leaf): equal to the signing hash,
    /// so it does not depend on signatures (spec §2.5).
    pub fn digest(&self) -> Hash32 {
        self.signing_hash()
    }

    /// Reads one transaction from the front of `r` (as inside a block). Its encoding must
    /// not exceed [`MAX_TX_SIZE`]; the reader never looks further than that.
    pub(crate) fn read_bounded(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let rest = r.rest();
        let window = &rest[..rest.len().min(MAX_TX_SIZE)];
        let mut inner = Reader::new(window);
        match Self::read_from(&mut inner) {
            Ok(tx) => {
                let used = window.len() - inner.remaining();
                r.take(used, "transaction")?;
                Ok(tx)
            }
            Err(CodecError::UnexpectedEof { .. } | CodecError::LengthOverflow { .. })
                if rest.len() > MAX_TX_SIZE =>
            {
                // It ran past the size window: the transaction claims more than the limit.
                Err(CodecError::TxTooLarge {
                    size: MAX_TX_SIZE + 1,
                })
            }
            Err(e) => Err(e),
        }
    }
}

fn check_ascending(signers: &[AdditionalSigner]) -> Result<(), CodecError> {
    for i in 1..signers.len() {
        if signers[i].address <= signers[i - 1].address {
            return Err(CodecError::SignersNotAscending { index: i });
        }
    }
    Ok(())
}

impl Write for Transaction {
    fn write(&self, buf: &mut impl BufMut) {
        put_varint(buf, self.chain_id);
        put_varint(buf, self.nonce);
        self.instruction.write(buf);
        put_varint(buf, self.cycles_limit);
        put_varint(buf, self.cells_limit);
        put_varint(buf, self.max_fee_per_cycle);
        put_varint(buf, self.max_fee_per_cell);
        put_varint(buf, self.max_priority_fee_per_cycle);
        put_varint(buf, self.max_priority_fee_per_cell);
        self.from.0.write(buf);
        match &self.access_list {
            None => put_tag(buf, false),
            Some(list) => {
                put_tag(buf, true);
                put_len(buf, list.len());
                for e in list {
                    e.address.0.write(buf);
                    put_len(buf, e.storage_keys.len());
                    for k in &e.storage_keys {
                        put_bytes(buf, k);
                    }
                }
            }
        }
        put_bytes(buf, &self.metadata);
        self.origin_tx_hash.write(buf);
        put_opt_varint(buf, self.origin_remaining_cycles);
        put_opt_varint(buf, self.origin_remaining_cells);
        self.signature.write(buf);
        put_len(buf, self.additional_signers.len());
        for s in &self.additional_signers {
            s.address.0.write(buf);
            s.signature.write(buf);
        }
    }
}

impl EncodeSize for Transaction {
    fn encode_size(&self) -> usize {
        let access = match &self.access_list {
            None => 1,
            Some(list) => {
                1 + len_size(list.len())
                    + list
                        .iter()
                        .map(|e| {
                            ADDRESS_SIZE
                                + len_size(e.storage_keys.len())
                                + e.storage_keys.iter().map(|k| bytes_size(k)).sum::<usize>()
                        })
                        .sum::<usize>()
            }
        };
        varint_size(self.chain_id)
            + varint_size(self.nonce)
            + self.instruction.encode_size()
            + varint_size(self.cycles_limit)
            + varint_size(self.cells_limit)
            + varint_size(self.max_fee_per_cycle)
            + varint_size(self.max_fee_per_cell)
            + varint_size(self.max_priority_fee_per_cycle)
            + varint_size(self.max_priority_fee_per_cell)
            + ADDRESS_SIZE
            + access
            + bytes_size(&self.metadata)
            + self.origin_tx_hash.encode_size()
            + opt_varint_size(self.origin_remaining_cycles)
            + opt_varint_size(self.origin_remaining_cells)
            + SIGNATURE_SIZE
            + len_size(self.additional_signers.len())
            + self.additional_signers.len() * (ADDRESS_SIZE + SIGNATURE_SIZE)
    }
}

impl Canonical for Transaction {
    const NAME: &'static str = "transaction";

    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let chain_id = r.varint("chain_id")?;
        let nonce = r.varint("nonce")?;
        let instruction = Instruction::read_from(r)?;
        let cycles_limit = r.varint("cycles_limit")?;
        let cells_limit = r.varint("cells_limit")?;
        let max_fee_per_cycle = r.varint("max_fee_per_cycle")?;
        let max_fee_per_cell = r.varint("max_fee_per_cell")?;
        let max_priority_fee_per_cycle = r.varint("max_priority_fee_per_cycle")?;
        let max_priority_fee_per_cell = r.varint("max_priority_fee_per_cell")?;
        let from = r.address("from")?;
        let access_list = if r.option_tag("access_list")? {
            // Each entry is at least 21 bytes (address + empty key list).
            let n = r.len_prefix("access_list", ADDRESS_SIZE + 1)?;
            let mut list = Vec::with_capacity(n);
            for i in 0..n {
                let address = r.address("address").map_err(|e| at(e, "access_list", i))?;
                let k = r
                    .len_prefix("storage_keys", 1)
                    .map_err(|e| at(e, "access_list", i))?;
                let mut storage_keys = Vec::with_capacity(k);
                for j in 0..k {
                    storage_keys.push(
                        r.bytes("key")
                            .map_err(|e| at(at(e, "storage_keys", j), "access_list", i))?,
                    );
                }
                list.push(AccessListEntry {
                    address,
                    storage_keys,
                });
            }
            Some(list)
        } else {
            None
        };
        let metadata = r.bytes("metadata")?;
        let origin_tx_hash = if r.option_tag("origin_tx_hash")? {
            Some(r.array("origin_tx_hash")?)
        } else {
            None
        };
        let origin_remaining_cycles = if r.option_tag("origin_remaining_cycles")? {
            Some(r.varint("origin_remaining_cycles")?)
        } else {
            None
        };
        let origin_remaining_cells = if r.option_tag("origin_remaining_cells")? {
            Some(r.varint("origin_remaining_cells")?)
        } else {
            None
        };
        let signature = r.array("signature")?;
        let n = r.len_prefix("additional_signers", ADDRESS_SIZE + SIGNATURE_SIZE)?;
        let mut additional_signers = Vec::with_capacity(n);
        for i in 0..n {
            let address = r
                .address("address")
                .map_err(|e| at(e, "additional_signers", i))?;
            let signature = r
                .array("signature")
                .map_err(|e| at(e, "additional_signers", i))?;
            additional_signers.push(AdditionalSigner { address, signature });
        }
        check_ascending(&additional_signers)?;
        Ok(Self {
            chain_id,
            nonce,
            instruction,
            cycles_limit,
            cells_limit,
            max_fee_per_cycle,
            max_fee_per_cell,
            max_priority_fee_per_cycle,
            max_priority_fee_per_cell,
            from,
            access_list,
            metadata,
            origin_tx_hash,
            origin_remaining_cycles,
            origin_remaining_cells,
            signature,
            additional_signers,
        })
    }

    /// Strict decode of one transaction; rejects inputs over [`MAX_TX_SIZE`] before reading.
    fn decode(bytes: &[u8]) -> Result<Self, CodecError> {
        if bytes.len() > MAX_TX_SIZE {
            return Err(CodecError::TxTooLarge { size: bytes.len() });
        }
        let mut r = Reader::new(bytes);
        let tx = Self::read_from(&mut r)?;
        r.finish(Self::NAME)?;
        Ok(tx)
    }
}

fn at(e: CodecError, list: &str, i: usize) -> CodecError {
    in_field(e, &format!("{list}[{i}]"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex;

    pub(crate) const VECTOR1: &str = "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";

    fn vector_tx() -> Transaction {
        Transaction {
            chain_id: 42,
            nonce: 0,
            instruction: Instruction::Transfer {
                to: Address([0x22; 20]),
                amount: 1,
            },
            cycles_limit: 50_000,
            cells_limit: 50_000,
            max_fee_per_cycle: 1,
            max_fee_per_cell: 1,
            max_priority_fee_per_cycle: 0,
            max_priority_fee_per_cell: 0,
            from: "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"
                .parse()
                .unwrap(),
            access_list: None,
            metadata: vec![],
            origin_tx_hash: None,
            origin_remaining_cycles: None,
            origin_remaining_cells: None,
            signature: ZERO_SIGNATURE,
            additional_signers: vec![],
        }
    }

    #[test]
    fn vector1_layout_and_hash() {
        let tx = vector_tx();
        assert_eq!(hex::encode(&tx.encode()), VECTOR1);
        assert_eq!(
            Transaction::decode(&hex::decode(VECTOR1).unwrap()).unwrap(),
            tx
        );
        assert_eq!(
            hex::encode(&tx.signing_hash()),
            "203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
        );
    }

    #[test]
    fn signing_hash_zeroes_every_signature_but_keeps_addresses() {
        let mut tx = vector_tx();
        tx.signature = [7; 65];
        tx.additional_signers = vec![
            AdditionalSigner {
                address: Address([1; 20]),
                signature: [8; 65],
            },
            AdditionalSigner {
                address: Address([2; 20]),
                signature: [9; 65],
            },
        ];
        let expect = keccak256(&tx.unsigned().encode());
        assert_eq!(tx.signing_hash(), expect);
        assert_eq!(tx.digest(), expect);
        let mut other = tx.clone();
        other.additional_signers[1].address = Address([3; 20]);
        assert_ne!(other.signing_hash(), expect);
    }

    #[test]
    fn signers_must_ascend() {
        let mut tx = vector_tx();
        let s = |b: u8| AdditionalSigner {
            address: Address([b; 20]),
            signature: [0; 65],
        };
        tx.additional_signers = vec![s(2), s(1)];
        let e = Transaction::decode(&tx.encode()).unwrap_err();
        assert_eq!(e.code(), "SIGNERS_NOT_ASCENDING");
        assert_eq!(tx.validate().unwrap_err(), e);
        tx.additional_signers = vec![s(1), s(1)];
        assert_eq!(
            Transaction::decode(&tx.encode()).unwrap_err().code(),
            "SIGNERS_NOT_ASCENDING"
        );
        tx.additional_signers = vec![s(1), s(2), s(3)];
        assert!(Transaction::decode(&tx.encode()).is_ok());
    }

    #[test]
    fn size_limit_is_checked_first() {
        let mut tx = vector_tx();
        tx.metadata = vec![0; MAX_TX_SIZE];
        assert_eq!(tx.validate().unwrap_err().code(), "TX_TOO_LARGE");
        // Even garbage over the limit reports the size, not a parse error.
        let big = vec![0xff; MAX_TX_SIZE + 1];
        assert_eq!(
            Transaction::decode(&big).unwrap_err(),
            CodecError::TxTooLarge {
                size: MAX_TX_SIZE + 1
            }
        );
        // Exactly at the limit is fine.
        let base = vector_tx().encode_size();
        let mut fit = vector_tx();
        let room = MAX_TX_SIZE - base;
        // metadata prefix grows from 1 to 3 bytes for lengths >= 16384.
        fit.metadata = vec![0; room - 2];
        assert_eq!(fit.encode_size(), MAX_TX_SIZE);
        assert!(Transaction::decode(&fit.encode()).is_ok());
    }

    #[test]
    fn nested_error_paths_name_the_field() {
        let mut tx = vector_tx();
        tx.access_list = Some(vec![AccessListEntry {
            address: Address([1; 20]),
            storage_keys: vec![vec![1, 2, 3]],
        }]);
        let mut b = tx.encode();
        // Truncate inside the storage key (after it come metadata 1, origin 3, signature 65,
        // signer count 1): the error names the nested path.
        let key_end = b.len() - (1 + 3 + 65 + 1);
        b.truncate(key_end - 1);
        let e = Transaction::decode(&b).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("access_list[0].storage_keys[0].key"),
            "{e}"
        );
    }
}
