//! One test per strictness rule of spec §2.5 / docs/codec.md §7, each checking its error
//! code and that the message names the field. All start from Appendix A Vector 1.

use cowboy_codec::constants::MAX_TX_SIZE;
use cowboy_codec::*;

const VECTOR1: &str = "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";

fn v1() -> Vec<u8> {
    hex::decode(VECTOR1).unwrap()
}

/// Offsets in Vector 1.
const NONCE: usize = 1;
const CATEGORY: usize = 2;
const SUB_TYPE: usize = 3;
const CYCLES_LIMIT: usize = 4 + 20 + 8;
const FROM_END: usize = CYCLES_LIMIT + 3 + 3 + 4 + 20;
const ACCESS_LIST_TAG: usize = FROM_END;
const METADATA_LEN: usize = FROM_END + 1;
const ORIGIN_HASH_TAG: usize = FROM_END + 2;

fn err(b: &[u8]) -> CodecError {
    Transaction::decode(b).unwrap_err()
}

fn expect(b: &[u8], code: &str, field_prefix: &str) {
    let e = err(b);
    assert_eq!(e.code(), code, "{e}");
    assert!(
        e.to_string().starts_with(field_prefix),
        "{e} should name {field_prefix}"
    );
}

#[test]
fn vector1_is_accepted() {
    assert!(Transaction::decode(&v1()).is_ok());
}

#[test]
fn non_minimal_varint() {
    // nonce 0 written as 80 00.
    let mut b = v1();
    b[NONCE] = 0x80;
    b.insert(NONCE + 1, 0x00);
    expect(&b, "NON_MINIMAL_VARINT", "nonce:");
    // chain_id 42 written as aa 00.
    let mut b = v1();
    b[0] = 0xaa;
    b.insert(1, 0x00);
    expect(&b, "NON_MINIMAL_VARINT", "chain_id:");
    // cycles_limit 50000 = d0 86 03 written as d0 86 83 00.
    let mut b = v1();
    b[CYCLES_LIMIT + 2] = 0x83;
    b.insert(CYCLES_LIMIT + 3, 0x00);
    expect(&b, "NON_MINIMAL_VARINT", "cycles_limit:");
}

#[test]
fn varint_overflow() {
    let mut b = v1();
    let eleven = [0xff; 11];
    b.splice(NONCE..NONCE + 1, eleven);
    expect(&b, "VARINT_OVERFLOW", "nonce:");
}

#[test]
fn invalid_option_tags() {
    for (off, field) in [
        (ACCESS_LIST_TAG, "access_list:"),
        (ORIGIN_HASH_TAG, "origin_tx_hash:"),
        (ORIGIN_HASH_TAG + 1, "origin_remaining_cycles:"),
        (ORIGIN_HASH_TAG + 2, "origin_remaining_cells:"),
    ] {
        for tag in [2u8, 0x80, 0xff] {
            let mut b = v1();
            b[off] = tag;
            expect(&b, "INVALID_OPTION_TAG", field);
        }
    }
}

#[test]
fn unknown_category_and_sub_type() {
    let mut b = v1();
    b[CATEGORY] = 4;
    expect(&b, "UNKNOWN_CATEGORY", "instruction.category:");
    let mut b = v1();
    b[SUB_TYPE] = 9;
    expect(&b, "UNKNOWN_SUB_TYPE", "instruction.sub_type:");
    let mut b = v1();
    b[SUB_TYPE] = 0;
    expect(&b, "UNKNOWN_SUB_TYPE", "instruction.sub_type:");
}

#[test]
fn trailing_bytes() {
    let mut b = v1();
    b.push(0);
    expect(&b, "TRAILING_BYTES", "transaction:");
}

#[test]
fn unexpected_eof() {
    let b = v1();
    expect(&b[..b.len() - 1], "UNEXPECTED_EOF", "additional_signers:");
    expect(&b[..10], "UNEXPECTED_EOF", "instruction.to:");
    expect(&[], "UNEXPECTED_EOF", "chain_id:");
}

#[test]
fn length_prefix_larger_than_input() {
    let mut b = v1();
    b[METADATA_LEN] = 0x7f; // 127 bytes of metadata, far fewer remain
    expect(&b, "LENGTH_OVERFLOW", "metadata:");
    // Signer count claiming 1 entry of 85 bytes with nothing left.
    let mut b = v1();
    let last = b.len() - 1;
    b[last] = 1;
    expect(&b, "LENGTH_OVERFLOW", "additional_signers:");
    // A huge count must not allocate: 0xffffffff entries.
    let mut b = v1();
    b.pop();
    b.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(&b, "LENGTH_OVERFLOW", "additional_signers:");
}

#[test]
fn tx_too_large_before_decoding() {
    let mut b = v1();
    b.resize(MAX_TX_SIZE + 1, 0);
    let e = err(&b);
    assert_eq!(
        e,
        CodecError::TxTooLarge {
            size: MAX_TX_SIZE + 1
        }
    );
    assert_eq!(e.code(), "TX_TOO_LARGE");
}

#[test]
fn tx_too_large_inside_a_block() {
    let header = BlockHeader {
        parent: [0; 32],
        height: 1,
        round: Round::default(),
        proposer: Address::ZERO,
        timestamp_ms: 0,
        state_root: [0; 32],
        tx_root: [0; 32],
        receipts_root: [0; 32],
        cycle_basefee: 0,
        cell_basefee: 0,
        cycles_used: 0,
        cells_used: 0,
        parent_seed: vec![],
    };
    let mut tx = Transaction::decode(&v1()).unwrap();
    tx.metadata = vec![0; MAX_TX_SIZE];
    let blk = Block {
        header,
        transactions: vec![tx],
    };
    let e = Block::decode(&blk.encode()).unwrap_err();
    assert_eq!(e.code(), "TX_TOO_LARGE");
}

#[test]
fn invalid_utf8_handler() {
    let tx = Transaction {
        instruction: Instruction::Call {
            to: Address::ZERO,
            handler: "ok".into(),
            args: vec![],
            value: 0,
        },
        ..Transaction::decode(&v1()).unwrap()
    };
    let mut b = tx.encode();
    // handler "ok" sits after category, sub_type and the 20-byte address, behind its length.
    let at = 2 + 2 + 20 + 1;
    assert_eq!(&b[at..at + 2], b"ok");
    b[at] = 0xff;
    expect(&b, "INVALID_UTF8", "instruction.handler:");
}

#[test]
fn signers_not_ascending() {
    let mut tx = Transaction::decode(&v1()).unwrap();
    tx.additional_signers = vec![
        AdditionalSigner {
            address: Address([5; 20]),
            signature: [0; 65],
        },
        AdditionalSigner {
            address: Address([4; 20]),
            signature: [0; 65],
        },
    ];
    let e = err(&tx.encode());
    assert_eq!(e, CodecError::SignersNotAscending { index: 1 });
    assert!(e.to_string().starts_with("additional_signers[1].address:"));
}

#[test]
fn source_rules_inside_a_transaction() {
    for (src, code) in [
        (&b"\xc3\x28"[..], "SOURCE_NOT_UTF8"),
        (b"\xEF\xBB\xBFpass\n", "SOURCE_HAS_BOM"),
        (b"pass\r\n", "SOURCE_HAS_CR"),
        ("s = 'A\u{30a}'\n".as_bytes(), "SOURCE_NOT_NFC"),
    ] {
        let tx = Transaction {
            instruction: Instruction::Deploy {
                source: src.to_vec(),
                salt: [0; 32],
                init_args: vec![],
                value: 0,
            },
            ..Transaction::decode(&v1()).unwrap()
        };
        expect(&tx.encode(), code, "instruction.source:");
        assert_eq!(tx.validate().unwrap_err().code(), code);
    }
}

#[test]
fn handler_interval_and_library_rules() {
    let base = Transaction::decode(&v1()).unwrap();
    let with = |instruction| Transaction {
        instruction,
        ..base.clone()
    };
    let t = with(Instruction::ScheduleTimer {
        actor: Address::ZERO,
        fire_at_height: 5,
        handler: "1tick".into(),
        data: vec![],
        interval: None,
    });
    expect(&t.encode(), "INVALID_HANDLER", "instruction.handler:");
    let t = with(Instruction::ScheduleTimer {
        actor: Address::ZERO,
        fire_at_height: 5,
        handler: "tick".into(),
        data: vec![],
        interval: Some(0),
    });
    expect(&t.encode(), "INVALID_INTERVAL", "instruction.interval:");
    let t = with(Instruction::PublishLibrary {
        name: "a".repeat(65),
        version: 1,
        source: vec![],
    });
    expect(&t.encode(), "INVALID_LIBRARY_NAME", "instruction.name:");
}
