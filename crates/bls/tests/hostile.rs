//! Hostile inputs are rejected with typed errors, never a panic.

use cowboy_bls::{
    Error, GroupPublic, PartialSignature, PrivateKey, PublicKey, Seed, Share, Signature,
    SignerBitmap, ValidatorSet, dkg::DkgOutput, round::decode_round,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};

/// Compressed encoding flag bits (ZCash serialization).
const COMPRESSED: u8 = 0x80;
const INFINITY: u8 = 0x40;

fn reason_pk(bytes: &[u8]) -> String {
    match PublicKey::from_bytes(bytes) {
        Err(Error::InvalidPublicKey(r)) => r,
        other => panic!("expected InvalidPublicKey, got {other:?}"),
    }
}

fn reason_sig(bytes: &[u8]) -> String {
    match Signature::from_bytes(bytes) {
        Err(Error::InvalidSignatureEncoding(r)) => r,
        other => panic!("expected InvalidSignatureEncoding, got {other:?}"),
    }
}

#[test]
fn public_key_infinity_rejected() {
    let mut b = [0u8; 48];
    b[0] = COMPRESSED | INFINITY;
    assert!(reason_pk(&b).to_lowercase().contains("infinity"));
}

#[test]
fn signature_infinity_rejected() {
    let mut b = [0u8; 96];
    b[0] = COMPRESSED | INFINITY;
    assert!(reason_sig(&b).to_lowercase().contains("infinity"));
}

#[test]
fn public_key_off_curve_and_outside_subgroup_rejected() {
    // Small x coordinates: about half are not on the curve; the ones on the
    // curve are (with overwhelming probability) outside the prime-order
    // subgroup, because the G1 cofactor is large.
    let (mut off_curve, mut outside) = (0, 0);
    for x in 0u8..64 {
        let mut b = [0u8; 48];
        b[0] = COMPRESSED;
        b[47] = x;
        let r = reason_pk(&b).to_lowercase();
        if r.contains("not on curve") {
            off_curve += 1;
        } else if r.contains("group") || r.contains("outside") {
            outside += 1;
        } else {
            panic!("unexpected reason {r}");
        }
    }
    assert!(off_curve > 0 && outside > 0, "{off_curve} {outside}");
}

#[test]
fn signature_off_curve_and_outside_subgroup_rejected() {
    let (mut off_curve, mut outside) = (0, 0);
    for x in 0u8..64 {
        let mut b = [0u8; 96];
        b[0] = COMPRESSED;
        b[95] = x;
        let r = reason_sig(&b).to_lowercase();
        if r.contains("not on curve") {
            off_curve += 1;
        } else if r.contains("group") || r.contains("outside") {
            outside += 1;
        } else {
            panic!("unexpected reason {r}");
        }
    }
    assert!(off_curve > 0 && outside > 0, "{off_curve} {outside}");
}

#[test]
fn bad_encodings_rejected() {
    // uncompressed flag clear
    let pk = PrivateKey::from_ikm(&[1; 32]).unwrap().public_key();
    let mut b = pk.to_bytes();
    b[0] &= !COMPRESSED;
    assert!(PublicKey::from_bytes(&b).is_err());
    // x >= p
    let mut b = [0xffu8; 48];
    b[0] = COMPRESSED | 0x1f;
    assert!(PublicKey::from_bytes(&b).is_err());
    // infinity flag with non-zero payload
    let mut b = [0u8; 48];
    b[0] = COMPRESSED | INFINITY;
    b[47] = 1;
    assert!(PublicKey::from_bytes(&b).is_err());
}

#[test]
fn wrong_lengths_rejected() {
    for n in [0usize, 1, 47, 49, 96] {
        assert!(matches!(
            PublicKey::from_bytes(&vec![0u8; n]),
            Err(Error::InvalidLength { expected: 48, .. })
        ));
    }
    for n in [0usize, 48, 95, 97] {
        assert!(matches!(
            Signature::from_bytes(&vec![0u8; n]),
            Err(Error::InvalidLength { expected: 96, .. })
        ));
    }
    assert!(matches!(
        PrivateKey::from_bytes(&[1u8; 33]),
        Err(Error::InvalidLength { .. })
    ));
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = ChaCha20Rng::seed_from_u64(77);
    for len in [0usize, 1, 2, 3, 32, 48, 50, 96, 98, 99, 200, 400] {
        for _ in 0..40 {
            let mut b = vec![0u8; len];
            rng.fill_bytes(&mut b);
            let _ = PublicKey::from_bytes(&b);
            let _ = Signature::from_bytes(&b);
            let _ = PrivateKey::from_bytes(&b);
            let _ = PartialSignature::from_bytes(&b);
            let _ = Share::from_bytes(&b);
            let _ = GroupPublic::from_bytes(&b);
            let _ = DkgOutput::from_bytes(&b);
            let _ = Seed::from_bytes(&b);
            let _ = decode_round(&b);
            let _ = SignerBitmap::from_bytes(len * 8 - len.min(3), &b);
        }
    }
}

#[test]
fn certificate_with_hostile_bitmaps() {
    let sks: Vec<_> = (0..4u8)
        .map(|i| PrivateKey::from_ikm(&[i + 10; 32]).unwrap())
        .collect();
    let set = ValidatorSet::new(sks.iter().map(|k| k.public_key()).collect()).unwrap();
    let sig = sks[0].sign(b"ns", b"m");
    for bitmap in [&[][..], &[0x0f, 0x00][..], &[0x1f][..], &[0x01][..]] {
        assert!(set.verify_certificate(b"ns", b"m", bitmap, &sig).is_err());
    }
}
