//! Threshold properties: any t of n partials recover the same signature, t−1
//! cannot, bad partials are identified.

use cowboy_bls::{
    Domain, Error, PartialSignature, Round,
    seed::{recover_seed, seed_message, sign_seed_partial},
    threshold::{
        deal, find_invalid_partials, recover, recover_verified, threshold_for, verify_partial,
    },
};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// A deterministic pseudo-random subset of `k` distinct indices of `0..n`.
fn subset(rng: &mut ChaCha20Rng, n: usize, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        idx.swap(i, j);
    }
    idx.truncate(k);
    idx
}

#[test]
fn any_t_of_n_recover_the_same_signature() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let n = 10u32;
    let t = threshold_for(n) as usize;
    assert_eq!(t, 7);
    let (group, shares) = deal(&mut rng, n).unwrap();
    let ns = Domain::Seed.namespace(3);
    let msg = seed_message(&Round { epoch: 0, view: 9 });
    let partials: Vec<PartialSignature> = shares.iter().map(|s| s.sign(&ns, &msg)).collect();
    let reference = recover(&group, &partials[..t]).unwrap();
    group.public_key().verify(&ns, &msg, &reference).unwrap();
    for _ in 0..20 {
        let pick: Vec<PartialSignature> = subset(&mut rng, n as usize, t)
            .into_iter()
            .map(|i| partials[i].clone())
            .collect();
        assert_eq!(recover(&group, &pick).unwrap(), reference);
    }
    // more than t also gives the same signature (lowest t indices are used)
    assert_eq!(recover(&group, &partials).unwrap(), reference);
}

#[test]
fn t_minus_one_cannot_recover() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let (group, shares) = deal(&mut rng, 10).unwrap();
    let partials: Vec<_> = shares.iter().map(|s| s.sign(b"ns", b"m")).collect();
    for _ in 0..5 {
        let pick: Vec<_> = subset(&mut rng, 10, 6)
            .into_iter()
            .map(|i| partials[i].clone())
            .collect();
        assert_eq!(
            recover(&group, &pick),
            Err(Error::NotEnoughPartials { have: 6, need: 7 })
        );
    }
    // duplicates do not count twice
    let mut dup: Vec<_> = partials[..6].to_vec();
    dup.push(partials[0].clone());
    assert_eq!(
        recover(&group, &dup),
        Err(Error::NotEnoughPartials { have: 6, need: 7 })
    );
    // conflicting duplicates are rejected
    let mut conflict: Vec<_> = partials[..7].to_vec();
    conflict.push(PartialSignature {
        index: 0,
        signature: partials[1].signature.clone(),
    });
    assert_eq!(recover(&group, &conflict), Err(Error::DuplicateSigner(0)));
    // out-of-range index
    let mut out = partials[..7].to_vec();
    out[0].index = 10;
    assert_eq!(
        recover(&group, &out),
        Err(Error::PartialIndexOutOfRange {
            index: 10,
            total: 10
        })
    );
}

#[test]
fn bad_partial_is_identified() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let (group, shares) = deal(&mut rng, 10).unwrap();
    let mut partials: Vec<_> = shares.iter().map(|s| s.sign(b"ns", b"m")).collect();
    // participant 4 signs another message; participant 7's signature is
    // attributed to participant 8.
    partials[4] = shares[4].sign(b"ns", b"other");
    partials[8].signature = partials[7].signature.clone();
    assert_eq!(
        verify_partial(&group, b"ns", b"m", &partials[4]),
        Err(Error::VerificationFailed)
    );
    verify_partial(&group, b"ns", b"m", &partials[3]).unwrap();
    assert_eq!(
        find_invalid_partials(&group, b"ns", b"m", &partials),
        vec![4, 8]
    );
    // a recovery including the bad partials does not verify...
    let naive = recover(&group, &partials).unwrap();
    assert!(group.public_key().verify(b"ns", b"m", &naive).is_err());
    // ...but the verified recovery skips them (8 valid >= 7)
    let sig = recover_verified(&group, b"ns", b"m", &partials).unwrap();
    group.public_key().verify(b"ns", b"m", &sig).unwrap();
    // all valid: nothing reported; empty: nothing reported
    let good: Vec<_> = shares.iter().map(|s| s.sign(b"ns", b"m")).collect();
    assert!(find_invalid_partials(&group, b"ns", b"m", &good).is_empty());
    assert!(find_invalid_partials(&group, b"ns", b"m", &[]).is_empty());
    // too many bad ones: recovery fails with a typed error
    let mut worse = good.clone();
    for p in worse.iter_mut().take(4) {
        p.signature = good[9].signature.clone();
    }
    assert!(recover_verified(&group, b"ns", b"m", &worse).is_err());
}

#[test]
fn seed_recovery_at_n100_t67() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let (group, shares) = deal(&mut rng, 100).unwrap();
    assert_eq!(group.threshold(), 67);
    let round = Round { epoch: 2, view: 41 };
    let partials: Vec<_> = shares
        .iter()
        .map(|s| sign_seed_partial(s, 1, &round))
        .collect();
    let a = recover_seed(&group, 1, &round, &partials[..67]).unwrap();
    let b = recover_seed(&group, 1, &round, &partials[33..]).unwrap();
    assert_eq!(a, b);
    a.verify(1, &group.public_key()).unwrap();
    assert!(matches!(
        recover_seed(&group, 1, &round, &partials[..66]),
        Err(Error::NotEnoughPartials { have: 66, need: 67 })
    ));
}

#[test]
fn verified_recovery_skips_hostile_partials() {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let (group, shares) = deal(&mut rng, 7).unwrap();
    let good: Vec<_> = shares.iter().map(|s| s.sign(b"ns", b"m")).collect();
    let reference = recover(&group, &good).unwrap();
    let mut hostile = good.clone();
    // an index outside the sharing, and a conflicting duplicate of index 2
    hostile.push(PartialSignature {
        index: 99,
        signature: good[0].signature.clone(),
    });
    hostile.push(PartialSignature {
        index: 2,
        signature: good[3].signature.clone(),
    });
    assert!(recover(&group, &hostile).is_err());
    assert_eq!(
        find_invalid_partials(&group, b"ns", b"m", &hostile),
        vec![7, 8]
    );
    assert_eq!(
        recover_verified(&group, b"ns", b"m", &hostile).unwrap(),
        reference
    );
    // not enough valid partials left
    assert!(matches!(
        recover_verified(&group, b"ns", b"m", &hostile[3..]),
        Err(Error::NotEnoughPartials { .. })
    ));
}
