//! Batch verification of many (key, message, signature) items.

use cowboy_bls::{
    BatchItem, Domain, Error, PrivateKey, PublicKey, Round, Signature, batch_verify,
    domain::{nullify_message, vote_message},
    find_invalid,
};

struct Vote {
    pk: PublicKey,
    ns: Vec<u8>,
    msg: Vec<u8>,
    sig: Signature,
}

fn votes(n: usize, messages: usize) -> Vec<Vote> {
    (0..n)
        .map(|i| {
            let mut ikm = [7u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_le_bytes());
            let sk = PrivateKey::from_ikm(&ikm).unwrap();
            let m = i % messages;
            let (domain, msg) = if m.is_multiple_of(2) {
                (
                    Domain::Notarize,
                    vote_message(&[m as u8; 32], 10, Round { epoch: 0, view: 10 }),
                )
            } else {
                (
                    Domain::Nullify,
                    nullify_message(Round {
                        epoch: 0,
                        view: m as u64,
                    }),
                )
            };
            let ns = domain.namespace(1);
            let sig = sk.sign(&ns, &msg);
            Vote {
                pk: sk.public_key(),
                ns,
                msg,
                sig,
            }
        })
        .collect()
}

fn items(v: &[Vote]) -> Vec<BatchItem<'_>> {
    v.iter()
        .map(|v| BatchItem {
            public_key: &v.pk,
            namespace: &v.ns,
            message: &v.msg,
            signature: &v.sig,
        })
        .collect()
}

#[test]
fn all_valid() {
    for messages in [1, 3, 40] {
        let v = votes(40, messages);
        batch_verify(&items(&v)).unwrap();
        assert!(find_invalid(&items(&v)).is_empty());
    }
}

#[test]
fn finds_the_bad_ones() {
    let mut v = votes(200, 3);
    // wrong message, wrong key, swapped signatures
    v[5].msg.push(0);
    v[77].pk = v[78].pk.clone();
    let s = v[150].sig.clone();
    v[150].sig = v[151].sig.clone();
    v[151].sig = s;
    assert_eq!(batch_verify(&items(&v)), Err(Error::VerificationFailed));
    assert_eq!(find_invalid(&items(&v)), vec![5, 77, 150, 151]);
}

#[test]
fn cancelling_errors_are_caught() {
    // sig_a + d and sig_b - d would pass an unweighted aggregate check.
    let mut v = votes(2, 1);
    let d = PrivateKey::from_ikm(&[9; 32]).unwrap().sign(b"x", b"y");
    let plus = *v[0].sig.point() + d.point();
    let minus = *v[1].sig.point() - d.point();
    v[0].sig = Signature::from_bytes(&commonware_codec::Encode::encode(&plus)).unwrap();
    v[1].sig = Signature::from_bytes(&commonware_codec::Encode::encode(&minus)).unwrap();
    assert!(batch_verify(&items(&v)).is_err());
    assert_eq!(find_invalid(&items(&v)), vec![0, 1]);
}

#[test]
fn empty_and_deterministic() {
    assert_eq!(batch_verify(&[]), Err(Error::Empty("batch")));
    assert!(find_invalid(&[]).is_empty());
    let mut v = votes(30, 2);
    v[3].msg.push(1);
    assert_eq!(find_invalid(&items(&v)), find_invalid(&items(&v)));
}
