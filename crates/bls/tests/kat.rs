//! Known-answer tests. The expected bytes were computed independently with
//! `@noble/curves` 2.4.0 (`bls12_381.longSignatures`, DSTs
//! `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` / `BLS_POP_..._POP_`, message
//! `varint(len(ns)) ‖ ns ‖ msg`) and Node's `crypto.hkdfSync('sha256', ...)`.

use cowboy_bls::{
    Domain, PrivateKey, PublicKey, Round, Seed, Signature,
    domain::vote_message,
    round::{decode_round, round_bytes},
    seed::{RUNNER_SELECT_LABEL, derive, seed_message},
};

const SK: &str = "263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3";
const PK: &str = "a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a";
const NOTARIZE: &str = "a835954a9c77e9669b82e9a9a7901d1a21d3695b6c337cb0a37b114c1d181be2d312aac775f6807cf3d2a7012491acee10470f2ed882d12a13dbe53215a9c40ac608af52978037c064d7b8c5a91aba3b6150f9cab667b5b1069908761a1c40da";
const SEED: &str = "86ac3ff620f78320736413c87a6ea12e530165903e5e718bad424d9fdc668cdbc0c95bc324388fade0485dd54168ce46165d5a21906983e79c60d1889ea3ffa3c607d62a99ed00ab9771342a263f2e3f62905cafeaf7d2a54ee7eca2616490eb";
const POP: &str = "8271d7a8f9771014f49a08c780b70765264e27713735d457d70c16d5a5e7864928dfb4ffe41b2363b83d6548c2012b8e158a315533beeecc374344fbc68e36658bf4cdbd67b7da3dfe9613c1cb2f1eb37305b09beb7074f9f642c4c77b3dd9ae";
const HKDF_RUNNER_JOB1: &str = "821808477573b5ce0971e04d4b89c71bb3a15113e1162bd9e4b54b070ecbdfb5";

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn key() -> PrivateKey {
    PrivateKey::from_bytes(&unhex(SK)).unwrap()
}

#[test]
fn seed_message_bytes() {
    assert_eq!(seed_message(&Round { epoch: 0, view: 1 }), [0x00, 0x01]);
    assert_eq!(
        seed_message(&Round {
            epoch: 1,
            view: 300
        }),
        [0x01, 0xac, 0x02]
    );
    assert_eq!(
        decode_round(&[0x01, 0xac, 0x02]).unwrap(),
        Round {
            epoch: 1,
            view: 300
        }
    );
    assert_eq!(round_bytes(&Round { epoch: 0, view: 1 }), [0x00, 0x01]);
}

#[test]
fn public_key_matches_noble() {
    assert_eq!(key().public_key().as_bytes(), unhex(PK).as_slice());
}

#[test]
fn notarize_vote_matches_noble() {
    let msg = vote_message(&[0x11; 32], 300, Round { epoch: 1, view: 2 });
    let sig = key().sign_in(Domain::Notarize, 42, &msg);
    assert_eq!(sig.as_bytes(), unhex(NOTARIZE).as_slice());
    let pk = PublicKey::from_bytes(&unhex(PK)).unwrap();
    pk.verify_in(
        Domain::Notarize,
        42,
        &msg,
        &Signature::from_bytes(&unhex(NOTARIZE)).unwrap(),
    )
    .unwrap();
}

#[test]
fn seed_signature_matches_noble() {
    // A 1-of-1 "group": the seed is the key's signature over the round bytes.
    let round = Round {
        epoch: 1,
        view: 300,
    };
    let sig = key().sign_in(Domain::Seed, 42, &seed_message(&round));
    assert_eq!(sig.as_bytes(), unhex(SEED).as_slice());
    let seed = Seed {
        round,
        signature: sig,
    };
    seed.verify(42, &key().public_key()).unwrap();
    let mut label = RUNNER_SELECT_LABEL.to_vec();
    label.extend_from_slice(b"job-1");
    assert_eq!(seed.derive(&label, 32).unwrap(), unhex(HKDF_RUNNER_JOB1));
    assert_eq!(
        derive(&seed.signature, &label, 32).unwrap(),
        unhex(HKDF_RUNNER_JOB1)
    );
}

#[test]
fn proof_of_possession_matches_noble() {
    let pop = key().proof_of_possession(42);
    assert_eq!(pop.as_bytes(), unhex(POP).as_slice());
    key()
        .public_key()
        .verify_proof_of_possession(42, &pop)
        .unwrap();
}
