//! Rounds, block headers, blocks and certificates (docs/codec.md §5).

use crate::address::Address;
use crate::constants::{ADDRESS_SIZE, HASH_SIZE};
use crate::error::CodecError;
use crate::hash::{Hash32, keccak256};
use crate::merkle::merkle_root;
use crate::receipt::Receipt;
use crate::transaction::Transaction;
use crate::wire::*;
use bytes::BufMut;
use commonware_codec::{EncodeSize, Write};

/// A consensus round: `(epoch, view)`, ordered lexicographically (epoch first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Round {
    /// Epoch (validator-set period).
    pub epoch: u64,
    /// View within the epoch.
    pub view: u64,
}

impl Round {
    fn read(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            epoch: r.varint("round.epoch")?,
            view: r.varint("round.view")?,
        })
    }
}

impl Write for Round {
    fn write(&self, buf: &mut impl BufMut) {
        put_varint(buf, self.epoch);
        put_varint(buf, self.view);
    }
}

impl EncodeSize for Round {
    fn encode_size(&self) -> usize {
        varint_size(self.epoch) + varint_size(self.view)
    }
}

impl Canonical for Round {
    const NAME: &'static str = "round";
    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Self::read(r)
    }
}

/// A block header. `block_hash = keccak256(encode(header))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHeader {
    /// Hash of the parent block.
    pub parent: Hash32,
    /// Height (genesis = 0).
    pub height: u64,
    /// Consensus round the block was proposed in.
    pub round: Round,
    /// Proposer address.
    pub proposer: Address,
    /// Proposer timestamp in milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    /// State root after executing the block.
    pub state_root: Hash32,
    /// [`merkle_root`] of the transaction digests.
    pub tx_root: Hash32,
    /// [`merkle_root`] of the receipt hashes.
    pub receipts_root: Hash32,
    /// Cycle basefee of this block.
    pub cycle_basefee: u64,
    /// Cell basefee of this block.
    pub cell_basefee: u64,
    /// Cycles used by the block.
    pub cycles_used: u64,
    /// Cells used by the block.
    pub cells_used: u64,
    /// Threshold-BLS seed signature of the preceding round (empty until BLS lands).
    pub parent_seed: Vec<u8>,
}

impl BlockHeader {
    /// `keccak256(encode(self))`.
    pub fn hash(&self) -> Hash32 {
        keccak256(&self.encode())
    }
}

impl Write for BlockHeader {
    fn write(&self, buf: &mut impl BufMut) {
        self.parent.write(buf);
        put_varint(buf, self.height);
        self.round.write(buf);
        self.proposer.0.write(buf);
        put_varint(buf, self.timestamp_ms);
        self.state_root.write(buf);
        self.tx_root.write(buf);
        self.receipts_root.write(buf);
        put_varint(buf, self.cycle_basefee);
        put_varint(buf, self.cell_basefee);
        put_varint(buf, self.cycles_used);
        put_varint(buf, self.cells_used);
        put_bytes(buf, &self.parent_seed);
    }
}

impl EncodeSize for BlockHeader {
    fn encode_size(&self) -> usize {
        HASH_SIZE
            + varint_size(self.height)
            + self.round.encode_size()
            + ADDRESS_SIZE
            + varint_size(self.timestamp_ms)
            + 3 * HASH_SIZE
            + varint_size(self.cycle_basefee)
            + varint_size(self.cell_basefee)
            + varint_size(self.cycles_used)
            + varint_size(self.cells_used)
            + bytes_size(&self.parent_seed)
    }
}

impl Canonical for BlockHeader {
    const NAME: &'static str = "block_header";
    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            parent: r.array("parent")?,
            height: r.varint("height")?,
            round: Round::read(r)?,
            proposer: r.address("proposer")?,
            timestamp_ms: r.varint("timestamp_ms")?,
            state_root: r.array("state_root")?,
            tx_root: r.array("tx_root")?,
            receipts_root: r.array("receipts_root")?,
            cycle_basefee: r.varint("cycle_basefee")?,
            cell_basefee: r.varint("cell_basefee")?,
            cycles_used: r.varint("cycles_used")?,
            cells_used: r.varint("cells_used")?,
            parent_seed: r.bytes("parent_seed")?,
        })
    }
}

/// A block: header and transactions (each inline, self-delimiting, ≤ `MAX_TX_SIZE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The header.
    pub header: BlockHeader,
    /// Transactions in execution order.
    pub transactions: Vec<Transaction>,
}

impl Block {
    /// The block hash (= header hash).
    pub fn hash(&self) -> Hash32 {
        self.header.hash()
    }

    /// [`merkle_root`] of the transaction digests; equals `header.tx_root` in a valid block.
    pub fn compute_tx_root(&self) -> Hash32 {
        tx_root(&self.transactions)
    }
}

/// [`merkle_root`] over the digests of `txs`.
pub fn tx_root(txs: &[Transaction]) -> Hash32 {
    let digests: Vec<Hash32> = txs.iter().map(Transaction::digest).collect();
    merkle_root(&digests)
}

/// [`merkle_root`] over the hashes of `receipts`.
pub fn receipts_root(receipts: &[Receipt]) -> Hash32 {
    let hashes: Vec<Hash32> = receipts.iter().map(Receipt::hash).collect();
    merkle_root(&hashes)
}

impl Write for Block {
    fn write(&self, buf: &mut impl BufMut) {
        self.header.write(buf);
        put_len(buf, self.transactions.len());
        for tx in &self.transactions {
            tx.write(buf);
        }
    }
}

impl EncodeSize for Block {
    fn encode_size(&self) -> usize {
        self.header.encode_size()
            + len_size(self.transactions.len())
            + self
                .transactions
                .iter()
                .map(EncodeSize::encode_size)
                .sum::<usize>()
    }
}

/// Smallest possible transaction encoding (used to bound the declared count).
const MIN_TX_SIZE: usize = 1 + 1 + 2 + 6 + ADDRESS_SIZE + 1 + 1 + 3 + 65 + 1;

impl Canonical for Block {
    const NAME: &'static str = "block";
    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let header = BlockHeader::read_from(r).map_err(|e| in_field(e, "header"))?;
        let n = r.len_prefix("transactions", MIN_TX_SIZE)?;
        let mut transactions = Vec::with_capacity(n);
        for i in 0..n {
            transactions.push(
                Transaction::read_bounded(r)
                    .map_err(|e| in_field(e, &format!("transactions[{i}]")))?,
            );
        }
        Ok(Self {
            header,
            transactions,
        })
    }
}

/// Kind of a consensus certificate (Simplex: notarize / nullify / finalize).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum CertificateKind {
    /// 2f+1 notarize votes.
    Notarize = 0,
    /// 2f+1 nullify votes (the view is skipped).
    Nullify = 1,
    /// 2f+1 finalize votes (the block and its ancestors are final).
    Finalize = 2,
}

impl CertificateKind {
    /// Decodes the 1-byte discriminant.
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => Self::Notarize,
            1 => Self::Nullify,
            2 => Self::Finalize,
            _ => return None,
        })
    }
}

/// An aggregated-vote certificate (spec §6.1 "QC").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// What the votes were for.
    pub kind: CertificateKind,
    /// Certified block hash.
    pub block_hash: Hash32,
    /// Height of the block.
    pub height: u64,
    /// Round of the votes.
    pub round: Round,
    /// BLS12-381 aggregate signature (filled by the BLS work).
    pub aggregated_signature: Vec<u8>,
    /// Bitmap of the signers' validator indices.
    pub signer_bitmap: Vec<u8>,
}

impl Write for Certificate {
    fn write(&self, buf: &mut impl BufMut) {
        buf.put_u8(self.kind as u8);
        self.block_hash.write(buf);
        put_varint(buf, self.height);
        self.round.write(buf);
        put_bytes(buf, &self.aggregated_signature);
        put_bytes(buf, &self.signer_bitmap);
    }
}

impl EncodeSize for Certificate {
    fn encode_size(&self) -> usize {
        1 + HASH_SIZE
            + varint_size(self.height)
            + self.round.encode_size()
            + bytes_size(&self.aggregated_signature)
            + bytes_size(&self.signer_bitmap)
    }
}

impl Canonical for Certificate {
    const NAME: &'static str = "certificate";
    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let k = r.u8("kind")?;
        let kind = CertificateKind::from_u8(k).ok_or(CodecError::UnknownVariant {
            field: "kind".into(),
            value: k,
        })?;
        Ok(Self {
            kind,
            block_hash: r.array("block_hash")?,
            height: r.varint("height")?,
            round: Round::read(r)?,
            aggregated_signature: r.bytes("aggregated_signature")?,
            signer_bitmap: r.bytes("signer_bitmap")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> BlockHeader {
        BlockHeader {
            parent: [1; 32],
            height: 7,
            round: Round { epoch: 0, view: 9 },
            proposer: Address([2; 20]),
            timestamp_ms: 1_700_000_000_000,
            state_root: [3; 32],
            tx_root: [4; 32],
            receipts_root: [5; 32],
            cycle_basefee: 10_000,
            cell_basefee: 10_000,
            cycles_used: 0,
            cells_used: 0,
            parent_seed: vec![],
        }
    }

    #[test]
    fn round_order() {
        assert!(Round { epoch: 0, view: 9 } < Round { epoch: 1, view: 0 });
        assert!(Round { epoch: 1, view: 1 } < Round { epoch: 1, view: 2 });
    }

    #[test]
    fn header_layout_and_hash() {
        let h = header();
        let b = h.encode();
        assert_eq!(&b[..32], &[1; 32]);
        assert_eq!(b[32], 7);
        assert_eq!(&b[33..35], &[0, 9]);
        assert_eq!(BlockHeader::decode(&b).unwrap(), h);
        assert_eq!(h.hash(), keccak256(&b));
    }

    #[test]
    fn certificate_kind_is_checked() {
        let c = Certificate {
            kind: CertificateKind::Finalize,
            block_hash: [9; 32],
            height: 3,
            round: Round { epoch: 1, view: 2 },
            aggregated_signature: vec![0xaa; 96],
            signer_bitmap: vec![0b101],
        };
        let mut b = c.encode();
        assert_eq!(Certificate::decode(&b).unwrap(), c);
        b[0] = 3;
        assert_eq!(
            Certificate::decode(&b).unwrap_err().code(),
            "UNKNOWN_VARIANT"
        );
    }

    #[test]
    fn empty_block() {
        let blk = Block {
            header: header(),
            transactions: vec![],
        };
        let b = blk.encode();
        assert_eq!(*b.last().unwrap(), 0);
        assert_eq!(Block::decode(&b).unwrap(), blk);
        assert_eq!(blk.compute_tx_root(), crate::merkle::EMPTY_ROOT);
        // A count larger than could fit is rejected before allocating.
        let mut bad = header().encode();
        bad.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(Block::decode(&bad).unwrap_err().code(), "LENGTH_OVERFLOW");
    }
}
