//! `cargo bench -p cowboy-bls`: native timings of the operations reported by
//! the `bls` suite (shared/BENCH.md). A plain timer (no criterion) keeps the
//! build light; each figure is the median of 5 runs, spread = (max-min)/median.
//! The peer comparison (`@noble/curves`) is done by `bench/bls/suite.ts`
//! through the native addon.

use cowboy_bls::{
    BatchItem, Domain, PartialSignature, PrivateKey, PublicKey, Round, Signature, ValidatorSet,
    batch_verify,
    domain::vote_message,
    threshold::{deal, recover},
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use std::{hint::black_box, time::Instant};

/// Runs `op` (which does `per_call` operations) for ~`ms` per run, 5 runs;
/// returns (median µs per operation, spread).
fn time_us(per_call: usize, ms: u128, mut op: impl FnMut()) -> (f64, f64) {
    op();
    let mut per_op = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut calls = 0usize;
        while start.elapsed().as_millis() < ms || calls == 0 {
            op();
            calls += 1;
        }
        per_op.push(start.elapsed().as_secs_f64() * 1e6 / (calls * per_call) as f64);
    }
    per_op.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = per_op[2];
    (median, (per_op[4] - per_op[0]) / median)
}

fn keys(n: usize) -> Vec<PrivateKey> {
    (0..n)
        .map(|i| {
            let mut ikm = [3u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            PrivateKey::from_ikm(&ikm).unwrap()
        })
        .collect()
}

fn row(name: &str, value: f64, unit: &str, spread: f64) {
    println!("{name:<34} {value:>14.2} {unit:<6} spread {spread:.3}");
}

fn main() {
    let chain = 1;
    let ns = Domain::Notarize.namespace(chain);
    let msg = vote_message(
        &[0xab; 32],
        1000,
        Round {
            epoch: 0,
            view: 1000,
        },
    );
    let sks = keys(1000);
    let sk = &sks[0];
    let pk = sk.public_key();
    let sig = sk.sign(&ns, &msg);

    let (us, sp) = time_us(1, 300, || {
        black_box(sk.sign(&ns, &msg));
    });
    row("sign_us", us, "us", sp);
    let (us, sp) = time_us(1, 300, || {
        pk.verify(&ns, &msg, &sig).unwrap();
    });
    row("verify_us", us, "us", sp);
    row("verify_per_s", 1e6 / us, "1/s", sp);
    let (pk_bytes, sig_bytes) = (pk.to_bytes(), sig.to_bytes());
    let (us, sp) = time_us(1, 300, || {
        black_box(PublicKey::from_bytes(&pk_bytes).unwrap());
    });
    row("decode_public_key_us", us, "us", sp);
    let (us, sp) = time_us(1, 300, || {
        black_box(Signature::from_bytes(&sig_bytes).unwrap());
    });
    row("decode_signature_us", us, "us", sp);

    for n in [4usize, 10, 50, 100] {
        let set = ValidatorSet::new(sks[..n].iter().map(PrivateKey::public_key).collect()).unwrap();
        let votes: Vec<(u32, Signature)> =
            (0..n).map(|i| (i as u32, sks[i].sign(&ns, &msg))).collect();
        let (bitmap, agg) = set.assemble(&votes).unwrap();
        let (us, sp) = time_us(1, 300, || {
            set.verify_certificate(&ns, &msg, bitmap.as_bytes(), &agg)
                .unwrap();
        });
        row(&format!("cert_verify_{n}_us"), us, "us", sp);
    }

    // 1,000 votes: realistic (one block message per round) and worst case
    // (every vote a distinct message).
    let pks: Vec<_> = sks.iter().map(PrivateKey::public_key).collect();
    let same: Vec<Signature> = sks.iter().map(|k| k.sign(&ns, &msg)).collect();
    let msgs: Vec<Vec<u8>> = (0..1000u64)
        .map(|i| vote_message(&[0xab; 32], i, Round { epoch: 0, view: i }))
        .collect();
    let distinct: Vec<Signature> = sks.iter().zip(&msgs).map(|(k, m)| k.sign(&ns, m)).collect();
    let items_same: Vec<BatchItem<'_>> = (0..1000)
        .map(|i| BatchItem {
            public_key: &pks[i],
            namespace: &ns,
            message: &msg,
            signature: &same[i],
        })
        .collect();
    let items_distinct: Vec<BatchItem<'_>> = (0..1000)
        .map(|i| BatchItem {
            public_key: &pks[i],
            namespace: &ns,
            message: &msgs[i],
            signature: &distinct[i],
        })
        .collect();
    let (us, sp) = time_us(1, 1000, || batch_verify(&items_same).unwrap());
    row("batch_verify_1000_ms", us / 1000.0, "ms", sp);
    let (us, sp) = time_us(1, 2000, || batch_verify(&items_distinct).unwrap());
    row("batch_verify_1000_distinct_ms", us / 1000.0, "ms", sp);

    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let (group, shares) = deal(&mut rng, 100).unwrap();
    let partials: Vec<PartialSignature> = shares.iter().map(|s| s.sign(&ns, &msg)).collect();
    let (us, sp) = time_us(1, 1000, || {
        black_box(recover(&group, &partials[..67]).unwrap());
    });
    row("recover_100_67_ms", us / 1000.0, "ms", sp);
}
