//! Batch verification of many `(public key, namespace, message, signature)`
//! items, with a fallback that names the invalid ones.
//!
//! Method: items are grouped by `(namespace, message)`; each distinct message
//! is hashed to G2 once. With 128-bit random weights `r_i`, one check
//! `∏_g e(H(m_g), Σ_{i∈g} r_i·pk_i) · e(Σ_i r_i·sig_i, −g1) = 1` costs
//! `groups + 1` pairings plus multi-scalar multiplications, instead of two
//! pairings per item. Votes of a round share a few messages, so a batch of
//! 1,000 votes costs a handful of pairings. If the check fails, the batch is
//! bisected (each half re-checked with fresh weights) down to the bad items.
//!
//! Determinism: the weights come from ChaCha20 seeded with SHA-256 of the
//! domain tag [`BATCH_DST`] and every item's bytes (a Fiat–Shamir derivation),
//! so results never depend on a clock or on OS randomness, while an attacker
//! who chooses the inputs still cannot predict the weights before fixing them
//! (soundness error about `2^-128` per check). The result equals checking every
//! item on its own.

use crate::{
    error::{Error, Result},
    keys::{PublicKey, Signature},
};
use commonware_cryptography::bls12381::primitives::{
    group::{G1, G2, SmallScalar},
    ops::hash_with_namespace,
    variant::{MinPk, Variant},
};
use commonware_math::algebra::Space;
use commonware_parallel::Sequential;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Domain tag of the weight derivation.
pub const BATCH_DST: &[u8] = b"cowboy-v1/batch-verify-weights";

/// One item of a batch.
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a> {
    /// The signer's key (proof of possession not required: items are checked
    /// independently thanks to the random weights).
    pub public_key: &'a PublicKey,
    /// Namespace of the message (see [`crate::Domain::namespace`]).
    pub namespace: &'a [u8],
    /// The signed message.
    pub message: &'a [u8],
    /// The signature to check.
    pub signature: &'a Signature,
}

/// The keys, signatures and weights of one message group within a check.
type Group = (Vec<G1>, Vec<G2>, Vec<SmallScalar>);

struct Prepared {
    /// Message-group id of each item.
    group: Vec<usize>,
    /// Hash-to-G2 of each distinct message.
    hashes: Vec<G2>,
    pks: Vec<G1>,
    sigs: Vec<G2>,
    rng: ChaCha20Rng,
}

fn prepare(items: &[BatchItem<'_>]) -> Prepared {
    let mut ids: BTreeMap<(&[u8], &[u8]), usize> = BTreeMap::new();
    let mut distinct: Vec<(&[u8], &[u8])> = Vec::new();
    let mut group = Vec::with_capacity(items.len());
    let mut transcript = Sha256::new();
    transcript.update(BATCH_DST);
    transcript.update((items.len() as u64).to_be_bytes());
    for it in items {
        let key = (it.namespace, it.message);
        let id = *ids.entry(key).or_insert_with(|| {
            distinct.push(key);
            distinct.len() - 1
        });
        group.push(id);
        transcript.update(it.public_key.as_bytes());
        transcript.update(it.signature.as_bytes());
        transcript.update((it.namespace.len() as u64).to_be_bytes());
        transcript.update(it.namespace);
        transcript.update((it.message.len() as u64).to_be_bytes());
        transcript.update(it.message);
    }
    let hashes = distinct
        .iter()
        .map(|(ns, msg)| hash_with_namespace::<MinPk>(MinPk::MESSAGE, ns, msg))
        .collect();
    let seed: [u8; 32] = transcript.finalize().into();
    Prepared {
        group,
        hashes,
        pks: items.iter().map(|i| *i.public_key.point()).collect(),
        sigs: items.iter().map(|i| *i.signature.point()).collect(),
        rng: ChaCha20Rng::from_seed(seed),
    }
}

impl Prepared {
    /// One randomized check over the items at `indices` (non-empty).
    ///
    /// Per message group `g`: `P_g = Σ r_i·pk_i`, `S_g = Σ r_i·sig_i`; then
    /// commonware's `batch_verify` checks all `(P_g, H(m_g), S_g)` at once
    /// (with its own second layer of random weights): `groups + 1` pairings.
    fn check(&mut self, indices: &[usize]) -> bool {
        let mut by_group: BTreeMap<usize, Group> = BTreeMap::new();
        for &i in indices {
            let w = SmallScalar::random(&mut self.rng);
            let e = by_group.entry(self.group[i]).or_default();
            e.0.push(self.pks[i]);
            e.1.push(self.sigs[i]);
            e.2.push(w);
        }
        let mut publics = Vec::with_capacity(by_group.len());
        let mut hms = Vec::with_capacity(by_group.len());
        let mut sigs = Vec::with_capacity(by_group.len());
        for (g, (pks, ss, ws)) in &by_group {
            publics.push(G1::msm(pks, ws, &Sequential));
            sigs.push(G2::msm(ss, ws, &Sequential));
            hms.push(self.hashes[*g]);
        }
        MinPk::batch_verify(&mut self.rng, &publics, &hms, &sigs, &Sequential).is_ok()
    }
}

/// Verifies every item; `Ok(())` iff all are valid. Empty input is an error.
pub fn batch_verify(items: &[BatchItem<'_>]) -> Result<()> {
    if items.is_empty() {
        return Err(Error::Empty("batch"));
    }
    let mut p = prepare(items);
    let all: Vec<usize> = (0..items.len()).collect();
    if p.check(&all) {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}

/// Verifies every item and returns the indices (ascending) of the invalid
/// ones; an empty vector means all are valid (and for empty input).
pub fn find_invalid(items: &[BatchItem<'_>]) -> Vec<usize> {
    if items.is_empty() {
        return Vec::new();
    }
    let mut p = prepare(items);
    let mut bad = Vec::new();
    let mut stack: Vec<Vec<usize>> = vec![(0..items.len()).collect()];
    while let Some(range) = stack.pop() {
        if p.check(&range) {
            continue;
        }
        if range.len() == 1 {
            bad.push(range[0]);
            continue;
        }
        let mid = range.len() / 2;
        stack.push(range[mid..].to_vec());
        stack.push(range[..mid].to_vec());
    }
    bad.sort_unstable();
    bad
}
