//! Spec 01 Appendix A (normative) transaction vectors, byte for byte.

use cowboy_codec::*;

const VECTOR1: &str = "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";
const VECTOR2: &str = "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100";
const SIGNING_HASH: &str = "203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a";
const FROM: &str = "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a";

fn key11() -> SecretKey {
    SecretKey::from_bytes(&[0x11; 32]).unwrap()
}

fn shared_fields() -> Transaction {
    Transaction {
        chain_id: 42,
        nonce: 0,
        instruction: Instruction::Transfer {
            to: "0x2222222222222222222222222222222222222222"
                .parse()
                .unwrap(),
            amount: 1,
        },
        cycles_limit: 50_000,
        cells_limit: 50_000,
        max_fee_per_cycle: 1,
        max_fee_per_cell: 1,
        max_priority_fee_per_cycle: 0,
        max_priority_fee_per_cell: 0,
        from: FROM.parse().unwrap(),
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
fn from_is_derived_from_key_0x11() {
    assert_eq!(key11().address().to_string(), FROM);
}

#[test]
fn vector1_unsigned_bytes_and_signing_hash() {
    let tx = shared_fields();
    assert_eq!(hex::encode(&tx.encode()), VECTOR1);
    let decoded = Transaction::decode(&hex::decode(VECTOR1).unwrap()).unwrap();
    assert_eq!(decoded, tx);
    assert_eq!(hex::encode(&tx.signing_hash()), SIGNING_HASH);
    assert_eq!(
        hex::encode(&keccak256(&hex::decode(VECTOR1).unwrap())),
        SIGNING_HASH
    );
    assert_eq!(hex::encode(&tx.digest()), SIGNING_HASH);
}

#[test]
fn vector2_signed_bytes() {
    let signed = sign(&shared_fields(), &key11()).unwrap();
    assert_eq!(hex::encode(&signed.encode()), VECTOR2);
    // v is the raw recovery id (0/1); Vector 2 has v = 1.
    assert_eq!(signed.signature[64], 1);
    let decoded = Transaction::decode(&hex::decode(VECTOR2).unwrap()).unwrap();
    assert_eq!(decoded, signed);
    // The identity does not depend on the signature.
    assert_eq!(hex::encode(&decoded.digest()), SIGNING_HASH);
    assert_eq!(recover_signer(&decoded).unwrap().to_string(), FROM);
    assert_eq!(verify(&decoded), Ok(()));
}

#[test]
fn chain_id_is_bound() {
    let mut other = sign(&shared_fields(), &key11()).unwrap();
    other.chain_id = 43;
    // Same signature, different chain: recovers someone else, so verify fails.
    assert_eq!(verify(&other).unwrap_err().code(), "SIGNER_MISMATCH");
}

#[test]
fn sign_refuses_a_key_that_is_not_from() {
    let k = SecretKey::from_bytes(&[0x22; 32]).unwrap();
    assert_eq!(
        sign(&shared_fields(), &k).unwrap_err().code(),
        "FROM_MISMATCH"
    );
}

#[test]
fn additional_signers_are_verified() {
    let a = SecretKey::from_bytes(&[0x31; 32]).unwrap();
    let b = SecretKey::from_bytes(&[0x32; 32]).unwrap();
    let mut tx = shared_fields();
    let mut signers = [a.address(), b.address()];
    signers.sort();
    tx.additional_signers = signers
        .iter()
        .map(|address| AdditionalSigner {
            address: *address,
            signature: ZERO_SIGNATURE,
        })
        .collect();
    let tx = sign(&tx, &key11()).unwrap();
    // Unsigned co-signers fail.
    assert_eq!(verify(&tx).unwrap_err().code(), "INVALID_SIGNATURE");
    let tx = sign_additional(&tx, &a).unwrap();
    let tx = sign_additional(&tx, &b).unwrap();
    assert_eq!(verify(&tx), Ok(()));
    // Order of signing does not matter: signatures do not enter the signing hash.
    assert_eq!(tx.signing_hash(), shared_with(&tx).signing_hash());
    // A co-signature moved to the other slot recovers the wrong address.
    let mut swapped = tx.clone();
    let s0 = swapped.additional_signers[0].signature;
    swapped.additional_signers[0].signature = swapped.additional_signers[1].signature;
    swapped.additional_signers[1].signature = s0;
    assert_eq!(
        verify(&swapped).unwrap_err().code(),
        "ADDITIONAL_SIGNER_MISMATCH"
    );
    let stranger = SecretKey::from_bytes(&[0x33; 32]).unwrap();
    assert_eq!(
        sign_additional(&tx, &stranger).unwrap_err().code(),
        "NOT_A_SIGNER"
    );
}

fn shared_with(tx: &Transaction) -> Transaction {
    tx.unsigned()
}

#[test]
fn batch_apis_match_single_calls() {
    let key = key11();
    let txs: Vec<Transaction> = (0..64)
        .map(|n| {
            let mut t = shared_fields();
            t.nonce = n;
            let mut t = sign(&t, &key).unwrap();
            if n % 5 == 0 {
                t.signature[10] ^= 1; // corrupt some
            }
            t
        })
        .collect();
    let v = verify_batch(&txs);
    let r = recover_batch(&txs);
    for (i, t) in txs.iter().enumerate() {
        assert_eq!(v[i], verify(t), "{i}");
        assert_eq!(r[i], recover_signer(t), "{i}");
        assert_eq!(v[i].is_ok(), i % 5 != 0, "{i}");
    }
}

#[test]
fn actor_address_from_canonical_source() {
    let creator: Address = FROM.parse().unwrap();
    let src = canonical_source(b"x = 1\n").unwrap();
    let ch = code_hash(src);
    assert_eq!(ch, keccak256(b"x = 1\n"));
    let addr = actor_address(&creator, &[0x33; 32], &ch);
    let mut pre = creator.0.to_vec();
    pre.extend_from_slice(&[0x33; 32]);
    pre.extend_from_slice(&ch);
    assert_eq!(addr.0[..], keccak256(&pre)[12..]);
}

/// Documented example of docs/codec.md §4 (actor address).
#[test]
fn documented_actor_address_example() {
    let creator: Address = FROM.parse().unwrap();
    let ch = code_hash(b"x = 1\n");
    let addr = actor_address(&creator, &[0x33; 32], &ch);
    println!("code_hash={} actor={}", hex::encode(&ch), addr);
    assert_eq!(hex::encode(&ch), DOC_CODE_HASH);
    assert_eq!(addr.to_string(), DOC_ACTOR);
}
const DOC_CODE_HASH: &str = "8e1b8dd4678e393cc26d93b9868768ed1284c9342dd15fd3854a4dbaecc5b43e";
const DOC_ACTOR: &str = "0x51f216abb5ec08973e09cb5402ffb448379be37e";
