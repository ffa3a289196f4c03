//! Fuzz-style robustness: mutate valid encodings (bit flips, truncations, insertions,
//! deletions, length-prefix changes, non-minimal varint rewrites) and feed random bytes.
//! The decoder must never panic, and whenever it accepts bytes `b`, `encode(decode(b)) == b`
//! (it never accepts a non-canonical encoding).

mod common;

use common::Rng;
use cowboy_codec::*;

/// Applies one random mutation to `b`.
fn mutate(rng: &mut Rng, b: &mut Vec<u8>) {
    if b.is_empty() {
        b.push(rng.next() as u8);
        return;
    }
    let i = rng.below(b.len() as u64) as usize;
    match rng.below(9) {
        // Bit flip.
        0 => b[i] ^= 1 << rng.below(8),
        // Byte replaced by an interesting value.
        1 => b[i] = [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff, 0x04, 0x03][rng.below(8) as usize],
        // Truncation.
        2 => b.truncate(i),
        // Insertion.
        3 => b.insert(i, rng.next() as u8),
        // Deletion.
        4 => {
            b.remove(i);
        }
        // Length prefix / count change: bump a small byte up or down (most length prefixes
        // of these encodings are single small bytes).
        5 => b[i] = b[i].wrapping_add(if rng.bool() { 1 } else { 0xff }),
        // Non-minimal varint rewrite: a byte < 0x80 (a varint's last byte) becomes
        // `b|0x80, 0x00` (or with one more redundant group).
        6 => {
            if let Some(j) = (i..b.len()).find(|&j| b[j] < 0x80) {
                b[j] |= 0x80;
                b.insert(j + 1, 0x00);
                if rng.bool() {
                    b[j + 1] = 0x80;
                    b.insert(j + 2, 0x00);
                }
            }
        }
        // Trailing garbage.
        7 => b.push(rng.next() as u8),
        // Duplicate a slice (shifts every following field).
        _ => {
            let len = 1 + rng.below(8) as usize;
            let end = (i + len).min(b.len());
            let chunk = b[i..end].to_vec();
            let at = rng.below(b.len() as u64) as usize;
            b.splice(at..at, chunk);
        }
    }
}

/// Decodes `b` as `T`; if accepted, its re-encoding must be identical. Returns acceptance.
fn probe<T: Canonical>(b: &[u8]) -> bool {
    match T::decode(b) {
        Ok(v) => {
            assert_eq!(
                v.encode(),
                b,
                "accepted a non-canonical {} encoding",
                T::NAME
            );
            true
        }
        Err(e) => {
            // Every error has a code and a message.
            assert!(!e.code().is_empty() && !e.to_string().is_empty());
            false
        }
    }
}

fn run<T: Canonical>(seed: u64, cases: usize, gen_valid: impl Fn(&mut Rng) -> T) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut accepted = 0;
    let mut rejected = 0;
    let mut base = gen_valid(&mut rng).encode();
    for n in 0..cases {
        if n % 16 == 0 {
            base = gen_valid(&mut rng).encode();
        }
        let mut b = base.clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut rng, &mut b);
        }
        if probe::<T>(&b) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    (accepted, rejected)
}

#[test]
fn mutated_transactions() {
    let (acc, rej) = run(1, 60_000, Rng::transaction);
    // Both outcomes occur: mutations of opaque bytes stay valid, structural ones do not.
    assert!(
        acc > 1_000 && rej > 10_000,
        "accepted {acc}, rejected {rej}"
    );
}

#[test]
fn mutated_instructions() {
    let (acc, rej) = run(2, 20_000, Rng::instruction);
    assert!(acc > 100 && rej > 1_000, "accepted {acc}, rejected {rej}");
}

#[test]
fn mutated_blocks_receipts_headers_certificates() {
    let (a1, r1) = run(3, 6_000, Rng::block);
    let (a2, r2) = run(4, 8_000, Rng::receipt);
    let (a3, r3) = run(5, 8_000, Rng::header);
    let (a4, r4) = run(6, 8_000, Rng::certificate);
    for (a, r) in [(a1, r1), (a2, r2), (a3, r3), (a4, r4)] {
        assert!(a > 10 && r > 100, "accepted {a}, rejected {r}");
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let b = rng.bytes(300);
        probe::<Transaction>(&b);
        probe::<Block>(&b);
        probe::<Receipt>(&b);
        probe::<BlockHeader>(&b);
        probe::<Certificate>(&b);
        probe::<Instruction>(&b);
    }
}

/// Every strict prefix of a valid encoding is rejected (nothing decodes from a truncation).
#[test]
fn every_truncation_is_rejected() {
    let mut rng = Rng(8);
    for _ in 0..300 {
        let b = rng.transaction().encode();
        for cut in 0..b.len() {
            assert!(Transaction::decode(&b[..cut]).is_err());
        }
    }
}
