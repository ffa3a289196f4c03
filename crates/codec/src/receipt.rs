//! Transaction receipts and events (docs/codec.md §5).

use crate::address::Address;
use crate::constants::{ADDRESS_SIZE, HASH_SIZE};
use crate::error::CodecError;
use crate::hash::{Hash32, keccak256};
use crate::wire::*;
use bytes::BufMut;
use commonware_codec::{EncodeSize, Write};

/// Outcome of a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ReceiptStatus {
    /// Executed and committed.
    Success = 0,
    /// The handler raised; state changes reverted, fees charged.
    Reverted = 1,
    /// Ran out of cycles.
    OutOfCycles = 2,
    /// Ran out of cells.
    OutOfCells = 3,
    /// Included but invalid at execution (e.g. nonce or balance).
    Invalid = 4,
}

impl ReceiptStatus {
    /// Decodes the 1-byte discriminant.
    pub fn from_u8(v: u8) -> Option<Self> {
        Some(match v {
            0 => Self::Success,
            1 => Self::Reverted,
            2 => Self::OutOfCycles,
            3 => Self::OutOfCells,
            4 => Self::Invalid,
            _ => return None,
        })
    }
}

/// An event emitted by an actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Emitting actor.
    pub emitter: Address,
    /// Topic bytes.
    pub topic: Vec<u8>,
    /// Event data.
    pub data: Vec<u8>,
}

/// The result of one transaction. `receipt_hash = keccak256(encode(receipt))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// Digest of the transaction.
    pub tx_hash: Hash32,
    /// Outcome.
    pub status: ReceiptStatus,
    /// Cycles consumed.
    pub cycles_used: u64,
    /// Cells consumed.
    pub cells_used: u64,
    /// Total fee paid (8-byte big-endian, like every money value).
    pub fee_paid: u64,
    /// Return value bytes (canonical CBOR from the PVM; opaque here).
    pub return_data: Vec<u8>,
    /// Error message when not successful.
    pub error: Option<String>,
    /// Events in emission order.
    pub events: Vec<Event>,
}

impl Receipt {
    /// `keccak256(encode(self))`: the leaf item of `receipts_root`.
    pub fn hash(&self) -> Hash32 {
        keccak256(&self.encode())
    }
}

impl Write for Receipt {
    fn write(&self, buf: &mut impl BufMut) {
        self.tx_hash.write(buf);
        buf.put_u8(self.status as u8);
        put_varint(buf, self.cycles_used);
        put_varint(buf, self.cells_used);
        self.fee_paid.write(buf);
        put_bytes(buf, &self.return_data);
        match &self.error {
            None => put_tag(buf, false),
            Some(s) => {
                put_tag(buf, true);
                put_bytes(buf, s.as_bytes());
            }
        }
        put_len(buf, self.events.len());
        for e in &self.events {
            e.emitter.0.write(buf);
            put_bytes(buf, &e.topic);
            put_bytes(buf, &e.data);
        }
    }
}

impl EncodeSize for Receipt {
    fn encode_size(&self) -> usize {
        HASH_SIZE
            + 1
            + varint_size(self.cycles_used)
            + varint_size(self.cells_used)
            + 8
            + bytes_size(&self.return_data)
            + 1
            + self.error.as_ref().map_or(0, |s| bytes_size(s.as_bytes()))
            + len_size(self.events.len())
            + self
                .events
                .iter()
                .map(|e| ADDRESS_SIZE + bytes_size(&e.topic) + bytes_size(&e.data))
                .sum::<usize>()
    }
}

impl Canonical for Receipt {
    const NAME: &'static str = "receipt";

    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let tx_hash = r.array("tx_hash")?;
        let s = r.u8("status")?;
        let status = ReceiptStatus::from_u8(s).ok_or(CodecError::UnknownVariant {
            field: "status".into(),
            value: s,
        })?;
        let cycles_used = r.varint("cycles_used")?;
        let cells_used = r.varint("cells_used")?;
        let fee_paid = r.u64_be("fee_paid")?;
        let return_data = r.bytes("return_data")?;
        let error = if r.option_tag("error")? {
            Some(r.string("error")?)
        } else {
            None
        };
        // Each event is at least 22 bytes (emitter + two empty byte strings).
        let n = r.len_prefix("events", ADDRESS_SIZE + 2)?;
        let mut events = Vec::with_capacity(n);
        for i in 0..n {
            let ev = (|| {
                Ok(Event {
                    emitter: r.address("emitter")?,
                    topic: r.bytes("topic")?,
                    data: r.bytes("data")?,
                })
            })()
            .map_err(|e| in_field(e, &format!("events[{i}]")))?;
            events.push(ev);
        }
        Ok(Self {
            tx_hash,
            status,
            cycles_used,
            cells_used,
            fee_paid,
            return_data,
            error,
            events,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Receipt {
        Receipt {
            tx_hash: [1; 32],
            status: ReceiptStatus::Reverted,
            cycles_used: 300,
            cells_used: 5,
            fee_paid: 1_000_000,
            return_data: vec![0xf6],
            error: Some("ValueError: bad".into()),
            events: vec![Event {
                emitter: Address([2; 20]),
                topic: b"Transfer".to_vec(),
                data: vec![1, 2],
            }],
        }
    }

    #[test]
    fn round_trip_and_layout() {
        let r = sample();
        let b = r.encode();
        assert_eq!(Receipt::decode(&b).unwrap(), r);
        assert_eq!(&b[..32], &[1; 32]);
        assert_eq!(b[32], 1);
        assert_eq!(&b[33..35], &[0xac, 0x02]);
        assert_eq!(b[35], 5);
        assert_eq!(&b[36..44], &1_000_000u64.to_be_bytes());
        assert_eq!(r.hash(), keccak256(&b));
    }

    #[test]
    fn unknown_status_and_bad_error_string() {
        let mut b = sample().encode();
        b[32] = 5;
        let e = Receipt::decode(&b).unwrap_err();
        assert_eq!(e.code(), "UNKNOWN_VARIANT");
        assert!(e.to_string().starts_with("status:"));
        let mut r = sample();
        r.error = None;
        r.events.clear();
        let mut b = r.encode();
        let tag_at = b.len() - 2;
        b[tag_at] = 2;
        assert_eq!(
            Receipt::decode(&b).unwrap_err().code(),
            "INVALID_OPTION_TAG"
        );
    }
}
