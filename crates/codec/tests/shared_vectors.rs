//! Cross-implementation vectors for the TypeScript twin (`ts/sdk`): a deterministic JSON file
//! `tests/vectors/codec-vectors.json` of valid values (JSON form, canonical hex, hashes),
//! signed transactions, invalid encodings with their expected error code, Merkle roots and
//! actor addresses. This test fails if the file is out of date; regenerate it with
//! `COWBOY_WRITE_VECTORS=1 cargo test -p cowboy-codec --test shared_vectors`.

mod common;

use common::Rng;
use cowboy_codec::json::*;
use cowboy_codec::*;
use serde_json::{Value, json};

const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/codec-vectors.json"
);

fn hx(b: &[u8]) -> String {
    hex::encode_prefixed(b)
}

fn build() -> Value {
    let mut rng = Rng(0x00c0_ffee);

    let mut txs = Vec::new();
    for i in 0..42 {
        let mut tx = rng.transaction();
        // Make sure every instruction kind appears at least 5 times.
        if i < 35 {
            while instruction_index(&tx.instruction) != i % 7 {
                tx.instruction = rng.instruction();
            }
        }
        txs.push(json!({
            "json": tx_to_json(&tx),
            "hex": hx(&tx.encode()),
            "signingHash": hx(&tx.signing_hash()),
        }));
    }

    let mut signed = Vec::new();
    for i in 0..12u8 {
        let key_bytes = [i.wrapping_mul(7).wrapping_add(1); 32];
        let key = SecretKey::from_bytes(&key_bytes).unwrap();
        let mut tx = rng.transaction();
        tx.from = key.address();
        tx.signature = ZERO_SIGNATURE;
        let co: Vec<SecretKey> = (0..(i % 3))
            .map(|j| SecretKey::from_bytes(&[0x40 + i + j; 32]).unwrap())
            .collect();
        let mut signers: Vec<AdditionalSigner> = co
            .iter()
            .map(|k| AdditionalSigner {
                address: k.address(),
                signature: ZERO_SIGNATURE,
            })
            .collect();
        signers.sort_by_key(|s| s.address);
        tx.additional_signers = signers;
        let unsigned = tx.encode();
        let mut s = sign(&tx, &key).unwrap();
        for k in &co {
            s = sign_additional(&s, k).unwrap();
        }
        assert_eq!(verify(&s), Ok(()));
        signed.push(json!({
            "secretKey": hx(&key_bytes),
            "additionalSecretKeys": co.iter().enumerate()
                .map(|(j, _)| hx(&[0x40 + i + j as u8; 32])).collect::<Vec<_>>(),
            "from": key.address().to_string(),
            "unsignedHex": hx(&unsigned),
            "signingHash": hx(&tx.signing_hash()),
            "signedHex": hx(&s.encode()),
        }));
    }

    let mut invalid = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    while invalid.len() < 80 {
        let mut b = rng.transaction().encode();
        let i = rng.below(b.len() as u64) as usize;
        match rng.below(5) {
            0 => b[i] ^= 1 << rng.below(8),
            1 => b.truncate(i),
            2 => b.push(rng.next() as u8),
            3 => {
                if let Some(j) = (i..b.len()).find(|&j| b[j] < 0x80) {
                    b[j] |= 0x80;
                    b.insert(j + 1, 0);
                }
            }
            _ => b[i] = b[i].wrapping_add(1),
        }
        if let Err(e) = Transaction::decode(&b) {
            // Keep a spread of codes: at most 12 of each.
            let count = seen.iter().filter(|(c, _)| *c == e.code()).count();
            if count < 12 {
                seen.insert((e.code(), invalid.len()));
                invalid.push(json!({ "hex": hx(&b), "code": e.code(), "message": e.to_string() }));
            }
        }
    }

    let merkle: Vec<Value> = (0..9)
        .map(|n| {
            let items: Vec<Hash32> = (0..n).map(|_| rng.array()).collect();
            json!({
                "items": items.iter().map(|x| hx(x)).collect::<Vec<_>>(),
                "root": hx(&merkle_root(&items)),
            })
        })
        .collect();

    let actors: Vec<Value> = (0..6)
        .map(|_| {
            let creator = rng.address();
            let salt: Hash32 = rng.array();
            let source = rng.source();
            let ch = code_hash(&source);
            json!({
                "creator": creator.to_string(),
                "salt": hx(&salt),
                "source": hx(&source),
                "codeHash": hx(&ch),
                "address": actor_address(&creator, &salt, &ch).to_string(),
            })
        })
        .collect();

    let headers: Vec<Value> = (0..6)
        .map(|_| {
            let h = rng.header();
            json!({ "json": header_to_json(&h), "hex": hx(&h.encode()) })
        })
        .collect();
    let blocks: Vec<Value> = (0..4)
        .map(|_| {
            let b = rng.block();
            json!({ "json": block_to_json(&b), "hex": hx(&b.encode()), "txRoot": hx(&b.compute_tx_root()) })
        })
        .collect();
    let receipts: Vec<Value> = (0..6)
        .map(|_| {
            let r = rng.receipt();
            json!({ "json": receipt_to_json(&r), "hex": hx(&r.encode()) })
        })
        .collect();
    let certificates: Vec<Value> = (0..6)
        .map(|_| {
            let c = rng.certificate();
            json!({ "json": certificate_to_json(&c), "hex": hx(&c.encode()) })
        })
        .collect();

    // Validator-set System instructions (sub-types 2..=7), from their own random stream so the
    // sections above stay as they were.
    let mut srng = Rng(0x5157_e3a1);
    let mut system_txs = Vec::new();
    for i in 0..24 {
        let mut tx = srng.transaction();
        tx.instruction = loop {
            let ins = srng.system_instruction();
            if system_index(&ins) == i % 6 {
                break ins;
            }
        };
        system_txs.push(json!({
            "json": tx_to_json(&tx),
            "hex": hx(&tx.encode()),
            "signingHash": hx(&tx.signing_hash()),
        }));
    }
    // Broken instruction encodings: each prefix is short, one byte more is trailing, and the
    // first unassigned System sub-type is unknown.
    let mut invalid_system = Vec::new();
    for _ in 0..6 {
        let ins = srng.system_instruction();
        let b = ins.encode();
        let cut = 2 + srng.below((b.len() - 1) as u64) as usize;
        let cases: Vec<Vec<u8>> = vec![b[..cut.min(b.len() - 1).max(1)].to_vec(), {
            let mut t = b.clone();
            t.push(srng.next() as u8);
            t
        }];
        for c in cases {
            if c.len() < 2 {
                continue;
            }
            let e = Instruction::decode(&c).unwrap_err();
            invalid_system.push(json!({ "hex": hx(&c), "code": e.code() }));
        }
    }
    let unknown = [0u8, 9];
    invalid_system.push(json!({
        "hex": hx(&unknown),
        "code": Instruction::decode(&unknown).unwrap_err().code(),
    }));

    // Resharing dealer logs (System sub-type 8, added with contract C4), from their own random
    // stream so every section above stays as it was.
    let mut drng = Rng(0xd4c1_0008);
    let mut dkg_txs = Vec::new();
    for _ in 0..8 {
        let mut tx = drng.transaction();
        tx.instruction = drng.dkg_log_instruction();
        dkg_txs.push(json!({
            "json": tx_to_json(&tx),
            "hex": hx(&tx.encode()),
            "signingHash": hx(&tx.signing_hash()),
        }));
    }
    // Broken encodings: a short prefix and one trailing byte each, and a log length beyond the input.
    let mut invalid_dkg = Vec::new();
    for _ in 0..4 {
        let b = drng.dkg_log_instruction().encode();
        let cut = 2 + drng.below((b.len() - 2) as u64) as usize;
        let mut long = b.clone();
        long.push(drng.next() as u8);
        for c in [b[..cut].to_vec(), long] {
            let e = Instruction::decode(&c).unwrap_err();
            invalid_dkg.push(json!({ "hex": hx(&c), "code": e.code() }));
        }
    }
    let overflow = [0u8, 8, 0, 0, 0, 0, 0, 0, 0, 1, 0x05, 0xaa];
    invalid_dkg.push(json!({
        "hex": hx(&overflow),
        "code": Instruction::decode(&overflow).unwrap_err().code(),
    }));

    json!({
        "about": "Cowboy codec cross-implementation vectors (docs/codec.md). Generated by crates/codec/tests/shared_vectors.rs; do not edit.",
        "systemTransactions": system_txs,
        "invalidSystemInstructions": invalid_system,
        "dkgLogTransactions": dkg_txs,
        "invalidDkgLogInstructions": invalid_dkg,
        "transactions": txs,
        "signed": signed,
        "invalidTransactions": invalid,
        "merkle": merkle,
        "actorAddresses": actors,
        "headers": headers,
        "blocks": blocks,
        "receipts": receipts,
        "certificates": certificates,
    })
}

fn system_index(i: &Instruction) -> usize {
    match i {
        Instruction::RegisterValidator { .. } => 0,
        Instruction::ExitValidator => 1,
        Instruction::WithdrawStake => 2,
        Instruction::UnjailValidator => 3,
        Instruction::SubmitEvidence { .. } => 4,
        Instruction::SysCancelTimer { .. } => 5,
        _ => usize::MAX,
    }
}

fn instruction_index(i: &Instruction) -> usize {
    match i {
        Instruction::Transfer { .. } => 0,
        Instruction::Deploy { .. } => 1,
        Instruction::Call { .. } => 2,
        Instruction::ScheduleTimer { .. } => 3,
        Instruction::CancelTimer { .. } => 4,
        Instruction::Custom { .. } => 5,
        Instruction::PublishLibrary { .. } => 6,
        // the validator-set kinds have their own section (systemTransactions)
        _ => usize::MAX,
    }
}

#[test]
fn vectors_file_is_up_to_date() {
    let text = serde_json::to_string_pretty(&build()).unwrap() + "\n";
    if std::env::var_os("COWBOY_WRITE_VECTORS").is_some() {
        std::fs::write(PATH, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(PATH).expect("vectors file missing: regenerate it");
    assert!(
        on_disk == text,
        "tests/vectors/codec-vectors.json is stale: regenerate it"
    );
}

/// Every vector in the file also checks out against the codec directly (so the file is
/// not only "what the code printed" but re-verified through the public API).
#[test]
fn vectors_file_is_consistent() {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(PATH).unwrap()).unwrap();
    let bytes = |s: &Value| hex::parse_prefixed(s.as_str().unwrap()).unwrap();
    for t in v["transactions"].as_array().unwrap() {
        let tx = tx_from_json(&t["json"]).unwrap();
        assert_eq!(tx.encode(), bytes(&t["hex"]));
        assert_eq!(Transaction::decode(&bytes(&t["hex"])).unwrap(), tx);
        assert_eq!(tx.signing_hash().to_vec(), bytes(&t["signingHash"]));
    }
    for s in v["signed"].as_array().unwrap() {
        let tx = Transaction::decode(&bytes(&s["signedHex"])).unwrap();
        assert_eq!(verify(&tx), Ok(()));
        let key = SecretKey::from_bytes(&bytes(&s["secretKey"])).unwrap();
        let unsigned = Transaction::decode(&bytes(&s["unsignedHex"])).unwrap();
        let mut again = sign(&unsigned, &key).unwrap();
        for k in s["additionalSecretKeys"].as_array().unwrap() {
            again = sign_additional(&again, &SecretKey::from_bytes(&bytes(k)).unwrap()).unwrap();
        }
        assert_eq!(again.encode(), bytes(&s["signedHex"]));
    }
    for t in v["systemTransactions"].as_array().unwrap() {
        let tx = tx_from_json(&t["json"]).unwrap();
        assert_eq!(tx.encode(), bytes(&t["hex"]));
        assert_eq!(Transaction::decode(&bytes(&t["hex"])).unwrap(), tx);
        assert_eq!(tx.signing_hash().to_vec(), bytes(&t["signingHash"]));
        assert_ne!(system_index(&tx.instruction), usize::MAX);
    }
    for t in v["dkgLogTransactions"].as_array().unwrap() {
        let tx = tx_from_json(&t["json"]).unwrap();
        assert_eq!(tx.encode(), bytes(&t["hex"]));
        assert_eq!(Transaction::decode(&bytes(&t["hex"])).unwrap(), tx);
        assert_eq!(tx.signing_hash().to_vec(), bytes(&t["signingHash"]));
        assert!(matches!(tx.instruction, Instruction::DkgLog { .. }));
    }
    for bad in v["invalidDkgLogInstructions"].as_array().unwrap() {
        let e = Instruction::decode(&bytes(&bad["hex"])).unwrap_err();
        assert_eq!(e.code(), bad["code"].as_str().unwrap());
    }
    for bad in v["invalidSystemInstructions"].as_array().unwrap() {
        let e = Instruction::decode(&bytes(&bad["hex"])).unwrap_err();
        assert_eq!(e.code(), bad["code"].as_str().unwrap());
    }
    for bad in v["invalidTransactions"].as_array().unwrap() {
        let e = Transaction::decode(&bytes(&bad["hex"])).unwrap_err();
        assert_eq!(e.code(), bad["code"].as_str().unwrap());
    }
    for m in v["merkle"].as_array().unwrap() {
        let items: Vec<Hash32> = m["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| bytes(x).try_into().unwrap())
            .collect();
        assert_eq!(merkle_root(&items).to_vec(), bytes(&m["root"]));
    }
    let codes: std::collections::BTreeSet<&str> = v["invalidTransactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["code"].as_str().unwrap())
        .collect();
    assert!(codes.len() >= 5, "{codes:?}");
}
