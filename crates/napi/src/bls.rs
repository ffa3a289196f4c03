//! JavaScript bindings of `cowboy-bls` (docs/bls.md).
//!
//! Conventions: bytes are `Buffer`s; chain ids, epochs, views and heights are
//! `bigint`; domains are the strings `"notarize" | "nullify" | "finalize" |
//! "seed" | "pop" | "dkg"`. Every failure throws an `Error` whose `code` is
//! `ERR_BLS_<CODE>` (see `cowboy_bls::Error::code`); a well-formed signature
//! that does not verify is not an error: `verify*` functions return `false`.
//! Heavy calls (batch and certificate verification, recovery) also exist as
//! `*Async` variants that run on the libuv thread pool and return Promises.

// `mod bls;` is private in lib.rs; in `cargo test` builds napi-derive emits no
// registration code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use cowboy_bls::{
    self as bls, BatchItem, Domain, Error as BlsError, GroupPublic, PartialSignature, PrivateKey,
    PublicKey, Round, Seed, Share, Signature, ValidatorSet,
    dkg::{self, DkgOutput},
    domain::vote_message,
    round::{parent_round, round_bytes},
    seed::{derive, seed_message},
    threshold,
};
use napi::{
    Env, JsValue, Status, Task,
    bindgen_prelude::JsObjectValue,
    bindgen_prelude::{AsyncTask, BigInt, Buffer},
};
use napi_derive::napi;
use std::sync::Arc;

/// The `code` of every error thrown by this module: `ERR_BLS_<CODE>`.
#[derive(Debug, Clone)]
pub struct BlsCode(String);

impl AsRef<str> for BlsCode {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

pub(crate) type Result<T> = napi::Result<T, BlsCode>;

pub(crate) fn err(e: BlsError) -> napi::Error<BlsCode> {
    napi::Error::new(BlsCode(format!("ERR_BLS_{}", e.code())), e.to_string())
}

pub(crate) fn arg(code: &str, msg: impl ToString) -> napi::Error<BlsCode> {
    napi::Error::new(BlsCode(format!("ERR_BLS_{code}")), msg.to_string())
}

pub(crate) fn u64_of(name: &str, v: &BigInt) -> Result<u64> {
    if v.words.is_empty() {
        return Ok(0);
    }
    let (negative, value, lossless) = v.get_u64();
    if negative || !lossless {
        return Err(arg(
            "INVALID_ARGUMENT",
            format!("{name}: expected a u64 bigint"),
        ));
    }
    Ok(value)
}

fn parse_domain(tag: &str) -> Result<Domain> {
    Domain::from_tag(tag).map_err(err)
}

fn round_of(epoch: &BigInt, view: &BigInt) -> Result<Round> {
    Ok(Round {
        epoch: u64_of("epoch", epoch)?,
        view: u64_of("view", view)?,
    })
}

fn sk(b: &[u8]) -> Result<PrivateKey> {
    PrivateKey::from_bytes(b).map_err(err)
}

fn pk(b: &[u8]) -> Result<PublicKey> {
    PublicKey::from_bytes(b).map_err(err)
}

fn sig(b: &[u8]) -> Result<Signature> {
    Signature::from_bytes(b).map_err(err)
}

/// Maps "does not verify" to `false`, every other failure to an error.
fn verified(r: bls::Result<()>) -> Result<bool> {
    match r {
        Ok(()) => Ok(true),
        Err(BlsError::VerificationFailed) => Ok(false),
        Err(e) => Err(err(e)),
    }
}

/// Rejects an async task with a JS `Error` carrying `code = ERR_BLS_<CODE>`.
fn reject<T>(env: &Env, e: BlsError) -> napi::Result<T> {
    let mut obj = env.create_error(napi::Error::new(Status::GenericFailure, e.to_string()))?;
    obj.set_named_property("code", format!("ERR_BLS_{}", e.code()))?;
    Err(napi::Error::from(obj.to_unknown()))
}

/// A secret key (32 bytes) derived from at least 32 bytes of input key
/// material (use `crypto.randomBytes(32)` for a fresh key).
#[napi]
pub fn bls_keygen(ikm: Buffer) -> Result<Buffer> {
    Ok(PrivateKey::from_ikm(&ikm)
        .map_err(err)?
        .to_bytes()
        .to_vec()
        .into())
}

/// The 48-byte public key of a 32-byte secret key.
#[napi]
pub fn bls_public_key(secret_key: Buffer) -> Result<Buffer> {
    Ok(sk(&secret_key)?.public_key().to_bytes().to_vec().into())
}

/// The namespace bytes of `domain` on chain `chainId`.
#[napi]
pub fn bls_namespace(domain: String, chain_id: BigInt) -> Result<Buffer> {
    Ok(parse_domain(&domain)?
        .namespace(u64_of("chainId", &chain_id)?)
        .into())
}

/// Signs `message` in `domain` on chain `chainId` (96-byte signature).
#[napi]
pub fn bls_sign(
    secret_key: Buffer,
    domain: String,
    chain_id: BigInt,
    message: Buffer,
) -> Result<Buffer> {
    let d = parse_domain(&domain)?;
    let s = sk(&secret_key)?.sign_in(d, u64_of("chainId", &chain_id)?, &message);
    Ok(s.to_bytes().to_vec().into())
}

/// Verifies a signature; `false` if it does not verify, throws on malformed input.
#[napi]
pub fn bls_verify(
    public_key: Buffer,
    domain: String,
    chain_id: BigInt,
    message: Buffer,
    signature: Buffer,
) -> Result<bool> {
    let d = parse_domain(&domain)?;
    let chain = u64_of("chainId", &chain_id)?;
    verified(pk(&public_key)?.verify_in(d, chain, &message, &sig(&signature)?))
}

/// Refuses raw namespaces inside the consensus domains' prefix (`cowboy-v1/`), so a raw
/// namespace can never stand for a vote, seed or proof-of-possession domain.
fn raw_namespace(namespace: &[u8]) -> Result<&[u8]> {
    if namespace.is_empty() || namespace.starts_with(bls::domain::NAMESPACE_PREFIX) {
        return Err(arg(
            "INVALID_ARGUMENT",
            "namespace: must be non-empty and must not start with \"cowboy-v1/\" (the consensus domains)",
        ));
    }
    Ok(namespace)
}

/// Signs `message` under the raw `namespace` bytes (protocol messages outside the consensus
/// domains, e.g. the validator-set `SYS_CANCEL_TIMER` namespace `cowboy-sys-cancel-timer-v1`).
/// The namespace must be non-empty and must not start with `cowboy-v1/`.
#[napi]
pub fn bls_sign_namespaced(
    secret_key: Buffer,
    namespace: Buffer,
    message: Buffer,
) -> Result<Buffer> {
    let s = sk(&secret_key)?.sign(raw_namespace(&namespace)?, &message);
    Ok(s.to_bytes().to_vec().into())
}

/// Verifies a signature (single or, with an aggregate key from `blsAggregatePublicKeys`, an
/// aggregate) made by `blsSignNamespaced`; `false` if it does not verify, throws on malformed
/// input or a namespace `blsSignNamespaced` refuses.
#[napi]
pub fn bls_verify_namespaced(
    public_key: Buffer,
    namespace: Buffer,
    message: Buffer,
    signature: Buffer,
) -> Result<bool> {
    let ns = raw_namespace(&namespace)?;
    verified(pk(&public_key)?.verify(ns, &message, &sig(&signature)?))
}

/// Proof of possession of a secret key for validator registration on `chainId`.
#[napi]
pub fn bls_proof_of_possession(secret_key: Buffer, chain_id: BigInt) -> Result<Buffer> {
    let p = sk(&secret_key)?.proof_of_possession(u64_of("chainId", &chain_id)?);
    Ok(p.to_bytes().to_vec().into())
}

/// Verifies a proof of possession.
#[napi]
pub fn bls_verify_proof_of_possession(
    public_key: Buffer,
    chain_id: BigInt,
    proof: Buffer,
) -> Result<bool> {
    verified(
        pk(&public_key)?.verify_proof_of_possession(u64_of("chainId", &chain_id)?, &sig(&proof)?),
    )
}

/// Sums signatures into one aggregate signature (96 bytes).
#[napi]
pub fn bls_aggregate_signatures(signatures: Vec<Buffer>) -> Result<Buffer> {
    let sigs = signatures
        .iter()
        .map(|s| sig(s))
        .collect::<Result<Vec<_>>>()?;
    let agg = bls::certificate::aggregate(&sigs).map_err(err)?;
    Ok(agg.to_bytes().to_vec().into())
}

/// Sums public keys into one aggregate key (48 bytes). Only keys with
/// verified proofs of possession may be aggregated for verification.
#[napi]
pub fn bls_aggregate_public_keys(public_keys: Vec<Buffer>) -> Result<Buffer> {
    let keys = public_keys
        .iter()
        .map(|k| pk(k))
        .collect::<Result<Vec<_>>>()?;
    let agg = bls::certificate::aggregate_keys(&keys).map_err(err)?;
    Ok(agg.to_bytes().to_vec().into())
}

/// The message of a notarize / finalize vote: `blockHash(32) ‖ varint height ‖ Round`.
#[napi]
pub fn bls_vote_message(
    block_hash: Buffer,
    height: BigInt,
    epoch: BigInt,
    view: BigInt,
) -> Result<Buffer> {
    let hash: [u8; 32] = block_hash.as_ref().try_into().map_err(|_| {
        err(BlsError::InvalidLength {
            what: "blockHash",
            expected: 32,
            got: block_hash.len(),
        })
    })?;
    Ok(vote_message(&hash, u64_of("height", &height)?, round_of(&epoch, &view)?).into())
}

/// Canonical bytes of `Round(epoch, view)` (also the seed and nullify message).
#[napi]
pub fn bls_round_bytes(epoch: BigInt, view: BigInt) -> Result<Buffer> {
    Ok(round_bytes(&round_of(&epoch, &view)?).into())
}

/// An absolute round.
#[napi(object)]
pub struct BlsRound {
    /// Epoch.
    pub epoch: BigInt,
    /// View within the epoch.
    pub view: BigInt,
}

/// The round whose seed is the parent beacon of a block proposed in
/// `(epoch, view)`; at the first view of an epoch pass the previous epoch's
/// last view.
#[napi]
pub fn bls_parent_round(
    epoch: BigInt,
    view: BigInt,
    last_view_of_previous_epoch: Option<BigInt>,
) -> Result<BlsRound> {
    let last = match &last_view_of_previous_epoch {
        Some(v) => Some(u64_of("lastViewOfPreviousEpoch", v)?),
        None => None,
    };
    let p = parent_round(&round_of(&epoch, &view)?, last).map_err(err)?;
    Ok(BlsRound {
        epoch: BigInt::from(p.epoch),
        view: BigInt::from(p.view),
    })
}

/// One item of a batch verification.
#[napi(object)]
pub struct BlsBatchItem {
    /// 48-byte public key.
    pub public_key: Buffer,
    /// Domain of the message.
    pub domain: String,
    /// Chain id.
    pub chain_id: BigInt,
    /// The signed message.
    pub message: Buffer,
    /// 96-byte signature.
    pub signature: Buffer,
}

/// One owned batch item: public key, namespace, message, signature bytes.
type RawItem = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

/// Owned copy of a batch, decoded and verified off the JS thread.
#[derive(Debug)]
pub struct BatchTask {
    raw: Vec<RawItem>,
}

fn own_batch(items: &[BlsBatchItem]) -> Result<BatchTask> {
    let raw = items
        .iter()
        .map(|i| {
            let ns = parse_domain(&i.domain)?.namespace(u64_of("chainId", &i.chain_id)?);
            Ok((
                i.public_key.to_vec(),
                ns,
                i.message.to_vec(),
                i.signature.to_vec(),
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(BatchTask { raw })
}

impl BatchTask {
    fn run(&self) -> bls::Result<Vec<u32>> {
        let pks = self
            .raw
            .iter()
            .map(|r| PublicKey::from_bytes(&r.0))
            .collect::<bls::Result<Vec<_>>>()?;
        let sigs = self
            .raw
            .iter()
            .map(|r| Signature::from_bytes(&r.3))
            .collect::<bls::Result<Vec<_>>>()?;
        let items: Vec<BatchItem<'_>> = self
            .raw
            .iter()
            .enumerate()
            .map(|(i, r)| BatchItem {
                public_key: &pks[i],
                namespace: &r.1,
                message: &r.2,
                signature: &sigs[i],
            })
            .collect();
        Ok(bls::find_invalid(&items)
            .into_iter()
            .map(|i| i as u32)
            .collect())
    }
}

impl Task for BatchTask {
    type Output = bls::Result<Vec<u32>>;
    type JsValue = Vec<u32>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output.or_else(|e| reject(&env, e))
    }
}

/// Verifies every item; returns the indices of the invalid ones (empty: all
/// valid). Throws on malformed keys or signatures.
#[napi]
pub fn bls_batch_verify(items: Vec<BlsBatchItem>) -> Result<Vec<u32>> {
    own_batch(&items)?.run().map_err(err)
}

/// `blsBatchVerify` on the libuv thread pool.
#[napi(ts_return_type = "Promise<number[]>")]
pub fn bls_batch_verify_async(items: Vec<BlsBatchItem>) -> Result<AsyncTask<BatchTask>> {
    Ok(AsyncTask::new(own_batch(&items)?))
}

/// A certificate: signer bitmap and aggregate signature.
#[napi(object)]
pub struct BlsCertificate {
    /// Signer bitmap (validator i = bit i % 8 of byte i / 8).
    pub bitmap: Buffer,
    /// 96-byte aggregate signature.
    pub signature: Buffer,
}

impl std::fmt::Debug for BlsCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsCertificate")
            .field("bitmap", &self.bitmap.as_ref())
            .field("signature", &self.signature.as_ref())
            .finish()
    }
}

/// An epoch's validator set (keys decoded and checked once).
#[napi]
#[derive(Debug)]
pub struct BlsValidatorSet {
    inner: Arc<ValidatorSet>,
}

#[napi]
impl BlsValidatorSet {
    /// A set of keys whose proofs of possession were verified at registration.
    /// Rejects duplicates and malformed keys.
    #[napi(constructor)]
    pub fn new(public_keys: Vec<Buffer>) -> Result<Self> {
        let keys = public_keys
            .iter()
            .map(|k| pk(k))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            inner: Arc::new(ValidatorSet::new(keys).map_err(err)?),
        })
    }

    /// A set built from registrations; every proof of possession is verified.
    #[napi(factory)]
    pub fn from_registrations(
        chain_id: BigInt,
        public_keys: Vec<Buffer>,
        proofs: Vec<Buffer>,
    ) -> Result<Self> {
        if public_keys.len() != proofs.len() {
            return Err(err(BlsError::LengthMismatch("publicKeys / proofs")));
        }
        let regs = public_keys
            .iter()
            .zip(proofs.iter())
            .map(|(k, p)| Ok((pk(k)?, sig(p)?)))
            .collect::<Result<Vec<_>>>()?;
        let set =
            ValidatorSet::from_registrations(u64_of("chainId", &chain_id)?, &regs).map_err(err)?;
        Ok(Self {
            inner: Arc::new(set),
        })
    }

    /// Number of validators.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Quorum (`n - (n - 1) / 3`).
    #[napi(getter)]
    pub fn quorum(&self) -> u32 {
        self.inner.quorum() as u32
    }

    /// Assembles a certificate from verified votes (`indices[i]` signed
    /// `signatures[i]`).
    #[napi]
    pub fn assemble(&self, indices: Vec<u32>, signatures: Vec<Buffer>) -> Result<BlsCertificate> {
        if indices.len() != signatures.len() {
            return Err(err(BlsError::LengthMismatch("indices / signatures")));
        }
        let votes = indices
            .into_iter()
            .zip(signatures.iter())
            .map(|(i, s)| Ok((i, sig(s)?)))
            .collect::<Result<Vec<_>>>()?;
        let (bitmap, agg) = self.inner.assemble(&votes).map_err(err)?;
        Ok(BlsCertificate {
            bitmap: bitmap.as_bytes().to_vec().into(),
            signature: agg.to_bytes().to_vec().into(),
        })
    }

    /// Verifies votes over one `message` in `domain` by validators
    /// `indices[i]` (signature `signatures[i]`); returns the positions of the
    /// invalid votes (empty: all valid). Keys come from the set (decoded once).
    #[napi]
    pub fn verify_votes(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        indices: Vec<u32>,
        signatures: Vec<Buffer>,
    ) -> Result<Vec<u32>> {
        self.votes_task(domain, chain_id, message, indices, signatures)?
            .run()
            .map_err(err)
    }

    /// `verifyVotes` on the libuv thread pool.
    #[napi(ts_return_type = "Promise<number[]>")]
    pub fn verify_votes_async(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        indices: Vec<u32>,
        signatures: Vec<Buffer>,
    ) -> Result<AsyncTask<VotesTask>> {
        Ok(AsyncTask::new(self.votes_task(
            domain, chain_id, message, indices, signatures,
        )?))
    }

    fn votes_task(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        indices: Vec<u32>,
        signatures: Vec<Buffer>,
    ) -> Result<VotesTask> {
        Ok(VotesTask {
            set: Arc::clone(&self.inner),
            ns: parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?),
            message: message.to_vec(),
            indices,
            signatures: signatures.iter().map(|s| s.to_vec()).collect(),
        })
    }

    /// Verifies a certificate over `message` in `domain`; `false` if the
    /// aggregate does not verify, throws on malformed input or too few signers.
    #[napi]
    pub fn verify_certificate(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        bitmap: Buffer,
        signature: Buffer,
    ) -> Result<bool> {
        let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
        verified(
            self.inner
                .verify_certificate(&ns, &message, &bitmap, &sig(&signature)?),
        )
    }

    /// `verifyCertificate` on the libuv thread pool.
    #[napi(ts_return_type = "Promise<boolean>")]
    pub fn verify_certificate_async(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        bitmap: Buffer,
        signature: Buffer,
    ) -> Result<AsyncTask<CertificateTask>> {
        let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
        Ok(AsyncTask::new(CertificateTask {
            set: Arc::clone(&self.inner),
            ns,
            message: message.to_vec(),
            bitmap: bitmap.to_vec(),
            signature: signature.to_vec(),
        }))
    }
}

/// Off-thread verification of votes by members of a validator set.
#[derive(Debug)]
pub struct VotesTask {
    set: Arc<ValidatorSet>,
    ns: Vec<u8>,
    message: Vec<u8>,
    indices: Vec<u32>,
    signatures: Vec<Vec<u8>>,
}

impl VotesTask {
    fn run(&self) -> bls::Result<Vec<u32>> {
        if self.indices.len() != self.signatures.len() {
            return Err(BlsError::LengthMismatch("indices / signatures"));
        }
        let keys = self.set.keys();
        let sigs = self
            .signatures
            .iter()
            .map(|s| Signature::from_bytes(s))
            .collect::<bls::Result<Vec<_>>>()?;
        let items = self
            .indices
            .iter()
            .zip(sigs.iter())
            .map(|(&i, signature)| {
                let public_key = keys.get(i as usize).ok_or(BlsError::SignerOutOfRange {
                    index: i,
                    validators: keys.len(),
                })?;
                Ok(BatchItem {
                    public_key,
                    namespace: &self.ns,
                    message: &self.message,
                    signature,
                })
            })
            .collect::<bls::Result<Vec<_>>>()?;
        Ok(bls::find_invalid(&items)
            .into_iter()
            .map(|i| i as u32)
            .collect())
    }
}

impl Task for VotesTask {
    type Output = bls::Result<Vec<u32>>;
    type JsValue = Vec<u32>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output.or_else(|e| reject(&env, e))
    }
}

/// Off-thread certificate verification.
#[derive(Debug)]
pub struct CertificateTask {
    set: Arc<ValidatorSet>,
    ns: Vec<u8>,
    message: Vec<u8>,
    bitmap: Vec<u8>,
    signature: Vec<u8>,
}

impl Task for CertificateTask {
    type Output = bls::Result<bool>;
    type JsValue = bool;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let run = || -> bls::Result<bool> {
            let s = Signature::from_bytes(&self.signature)?;
            match self
                .set
                .verify_certificate(&self.ns, &self.message, &self.bitmap, &s)
            {
                Ok(()) => Ok(true),
                Err(BlsError::VerificationFailed) => Ok(false),
                Err(e) => Err(e),
            }
        };
        Ok(run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output.or_else(|e| reject(&env, e))
    }
}

/// Output of the trusted dealer.
#[napi(object)]
pub struct BlsDealing {
    /// The group public polynomial (`BlsGroup` bytes).
    pub group: Buffer,
    /// Share `i` belongs to participant `i`.
    pub shares: Vec<Buffer>,
}

/// Trusted dealer for devnets and test networks: `n` shares with threshold
/// `n - (n - 1) / 3`, derived deterministically from `seed` (at least 32
/// bytes; keep it secret). Real networks use the DKG.
#[napi]
pub fn bls_threshold_deal(seed: Buffer, n: u32) -> Result<BlsDealing> {
    let (group, shares) = threshold::deal_from_seed(&seed, n).map_err(err)?;
    Ok(BlsDealing {
        group: group.to_bytes().into(),
        shares: shares.iter().map(|s| s.to_bytes().into()).collect(),
    })
}

/// Signs `message` in `domain` with a key share; returns the partial signature bytes.
#[napi]
pub fn bls_partial_sign(
    share: Buffer,
    domain: String,
    chain_id: BigInt,
    message: Buffer,
) -> Result<Buffer> {
    let s = Share::from_bytes(&share).map_err(err)?;
    let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
    Ok(s.sign(&ns, &message).to_bytes().into())
}

/// A validator's partial signature of the seed of `Round(epoch, view)`.
#[napi]
pub fn bls_seed_partial_sign(
    share: Buffer,
    chain_id: BigInt,
    epoch: BigInt,
    view: BigInt,
) -> Result<Buffer> {
    let s = Share::from_bytes(&share).map_err(err)?;
    let p =
        bls::seed::sign_seed_partial(&s, u64_of("chainId", &chain_id)?, &round_of(&epoch, &view)?);
    Ok(p.to_bytes().into())
}

/// A decoded seed.
#[napi(object)]
pub struct BlsSeed {
    /// Epoch of the seed's round.
    pub epoch: BigInt,
    /// View of the seed's round.
    pub view: BigInt,
    /// 96-byte threshold signature (the beacon value `R`).
    pub signature: Buffer,
}

/// Decodes seed bytes (`Round ‖ signature`); does not verify.
#[napi]
pub fn bls_seed_decode(seed: Buffer) -> Result<BlsSeed> {
    let s = Seed::from_bytes(&seed).map_err(err)?;
    Ok(BlsSeed {
        epoch: BigInt::from(s.round.epoch),
        view: BigInt::from(s.round.view),
        signature: s.signature.to_bytes().to_vec().into(),
    })
}

/// Verifies seed bytes against the epoch's group public key (48 bytes).
#[napi]
pub fn bls_seed_verify(seed: Buffer, chain_id: BigInt, group_public_key: Buffer) -> Result<bool> {
    let s = Seed::from_bytes(&seed).map_err(err)?;
    verified(s.verify(u64_of("chainId", &chain_id)?, &pk(&group_public_key)?))
}

/// The seed message of `Round(epoch, view)`.
#[napi]
pub fn bls_seed_message(epoch: BigInt, view: BigInt) -> Result<Buffer> {
    Ok(seed_message(&round_of(&epoch, &view)?).into())
}

/// `HKDF(R, label)`: HKDF-SHA256, salt `"cowboy-v1/beacon-hkdf"`, IKM = the
/// seed's 96-byte signature, info = `label`, `length` bytes (1..=8160).
#[napi]
pub fn bls_seed_derive(seed_signature: Buffer, label: Buffer, length: u32) -> Result<Buffer> {
    Ok(derive(&sig(&seed_signature)?, &label, length as usize)
        .map_err(err)?
        .into())
}

/// The public side of a sharing: group key, threshold, partial keys, recovery.
#[napi]
#[derive(Debug)]
pub struct BlsGroup {
    inner: Arc<GroupPublic>,
}

fn partials(list: &[Buffer]) -> Result<Vec<PartialSignature>> {
    list.iter()
        .map(|p| PartialSignature::from_bytes(p).map_err(err))
        .collect()
}

#[napi]
impl BlsGroup {
    /// Decodes group bytes (from `blsThresholdDeal` or a DKG output).
    #[napi(constructor)]
    pub fn new(bytes: Buffer) -> Result<Self> {
        let g = GroupPublic::from_bytes(&bytes).map_err(err)?;
        g.precompute();
        Ok(Self { inner: Arc::new(g) })
    }

    /// The 48-byte group public key.
    #[napi(getter)]
    pub fn public_key(&self) -> Buffer {
        self.inner.public_key().to_bytes().to_vec().into()
    }

    /// Partials needed to recover.
    #[napi(getter)]
    pub fn threshold(&self) -> u32 {
        self.inner.threshold()
    }

    /// Participants.
    #[napi(getter)]
    pub fn total(&self) -> u32 {
        self.inner.total()
    }

    /// Public key of participant `index`'s share.
    #[napi]
    pub fn partial_public_key(&self, index: u32) -> Result<Buffer> {
        Ok(self
            .inner
            .partial_public_key(index)
            .map_err(err)?
            .to_bytes()
            .to_vec()
            .into())
    }

    /// Verifies one partial signature.
    #[napi]
    pub fn verify_partial(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        partial: Buffer,
    ) -> Result<bool> {
        let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
        let p = PartialSignature::from_bytes(&partial).map_err(err)?;
        verified(threshold::verify_partial(&self.inner, &ns, &message, &p))
    }

    /// Positions (in `partials`) of the invalid partial signatures.
    #[napi]
    pub fn find_invalid_partials(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        partials_bytes: Vec<Buffer>,
    ) -> Result<Vec<u32>> {
        let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
        let ps = partials(&partials_bytes)?;
        Ok(
            threshold::find_invalid_partials(&self.inner, &ns, &message, &ps)
                .into_iter()
                .map(|i| i as u32)
                .collect(),
        )
    }

    /// Recovers the threshold signature from at least `threshold` partials
    /// (not verified; use `recoverVerifiedAsync` for untrusted partials).
    #[napi]
    pub fn recover(&self, partials_bytes: Vec<Buffer>) -> Result<Buffer> {
        let ps = partials(&partials_bytes)?;
        Ok(threshold::recover(&self.inner, &ps)
            .map_err(err)?
            .to_bytes()
            .to_vec()
            .into())
    }

    /// Recovers and verifies the signature over `message` in `domain`,
    /// skipping invalid partials, on the libuv thread pool.
    #[napi(ts_return_type = "Promise<Buffer>")]
    pub fn recover_verified_async(
        &self,
        domain: String,
        chain_id: BigInt,
        message: Buffer,
        partials_bytes: Vec<Buffer>,
    ) -> Result<AsyncTask<RecoverTask>> {
        let ns = parse_domain(&domain)?.namespace(u64_of("chainId", &chain_id)?);
        Ok(AsyncTask::new(RecoverTask {
            group: Arc::clone(&self.inner),
            ns,
            message: message.to_vec(),
            partials: partials_bytes.iter().map(|b| b.to_vec()).collect(),
            seed_round: None,
        }))
    }

    /// Recovers and verifies the seed of `Round(epoch, view)` (seed bytes:
    /// `Round ‖ signature`), on the libuv thread pool.
    #[napi(ts_return_type = "Promise<Buffer>")]
    pub fn recover_seed_async(
        &self,
        chain_id: BigInt,
        epoch: BigInt,
        view: BigInt,
        partials_bytes: Vec<Buffer>,
    ) -> Result<AsyncTask<RecoverTask>> {
        let round = round_of(&epoch, &view)?;
        Ok(AsyncTask::new(RecoverTask {
            group: Arc::clone(&self.inner),
            ns: Domain::Seed.namespace(u64_of("chainId", &chain_id)?),
            message: seed_message(&round),
            partials: partials_bytes.iter().map(|b| b.to_vec()).collect(),
            seed_round: Some(round),
        }))
    }
}

/// Off-thread recovery (signature, or seed when `seed_round` is set).
#[derive(Debug)]
pub struct RecoverTask {
    group: Arc<GroupPublic>,
    ns: Vec<u8>,
    message: Vec<u8>,
    partials: Vec<Vec<u8>>,
    seed_round: Option<Round>,
}

impl Task for RecoverTask {
    type Output = bls::Result<Vec<u8>>;
    type JsValue = Buffer;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let run = || -> bls::Result<Vec<u8>> {
            let ps = self
                .partials
                .iter()
                .map(|b| PartialSignature::from_bytes(b))
                .collect::<bls::Result<Vec<_>>>()?;
            let s = threshold::recover_verified(&self.group, &self.ns, &self.message, &ps)?;
            Ok(match self.seed_round {
                Some(round) => Seed {
                    round,
                    signature: s,
                }
                .to_bytes(),
                None => s.to_bytes().to_vec(),
            })
        };
        Ok(run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output.map(Buffer::from).or_else(|e| reject(&env, e))
    }
}

fn dkg_info(
    chain_id: &BigInt,
    round: &BigInt,
    previous_output: Option<&Buffer>,
    dealers: &[Buffer],
    players: &[Buffer],
) -> Result<dkg::Info> {
    let previous = match previous_output {
        Some(b) => Some(DkgOutput::from_bytes(b).map_err(err)?),
        None => None,
    };
    let dealers = dealers.iter().map(|k| pk(k)).collect::<Result<Vec<_>>>()?;
    let players = players.iter().map(|k| pk(k)).collect::<Result<Vec<_>>>()?;
    dkg::info(
        u64_of("chainId", chain_id)?,
        u64_of("round", round)?,
        previous.as_ref(),
        &dealers,
        &players,
    )
    .map_err(err)
}

fn agreed_logs(info: &dkg::Info, logs: &[Buffer]) -> Result<dkg::Logs> {
    let signed = logs
        .iter()
        .map(|b| dkg::decode_signed_dealer_log(b).map_err(err))
        .collect::<Result<Vec<_>>>()?;
    Ok(dkg::collect_logs(info, signed))
}

/// `Debug` for bindings objects that carry `Buffer`s (which have no `Debug`):
/// the type name only, never the bytes (shares are secret).
macro_rules! opaque_debug {
    ($($t:ty),*) => {$(
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(stringify!($t))
            }
        }
    )*};
}

opaque_debug!(BlsDkgPrivateMessage, BlsDkgResult);

/// A private dealing addressed to one player.
#[napi(object)]
pub struct BlsDkgPrivateMessage {
    /// The player's 48-byte public key.
    pub player: Buffer,
    /// The dealing (send it privately and authenticated to `player`).
    pub message: Buffer,
}

/// A dealer of one DKG / resharing ceremony (see docs/bls.md §6).
#[napi]
pub struct BlsDkgDealer {
    inner: Option<dkg::Dealer>,
    public_message: Vec<u8>,
    private_messages: Vec<(Vec<u8>, Vec<u8>)>,
}

impl std::fmt::Debug for BlsDkgDealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsDkgDealer")
            .field("finalized", &self.inner.is_none())
            .finish()
    }
}

#[napi]
impl BlsDkgDealer {
    /// Starts dealing in ceremony `round` on `chainId`. `previousOutput` and
    /// `previousShare` are given when resharing; `randomness` is 32 fresh
    /// secret bytes (`crypto.randomBytes(32)`).
    #[napi(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        chain_id: BigInt,
        round: BigInt,
        previous_output: Option<Buffer>,
        dealers: Vec<Buffer>,
        players: Vec<Buffer>,
        secret_key: Buffer,
        previous_share: Option<Buffer>,
        randomness: Buffer,
    ) -> Result<Self> {
        let info = dkg_info(
            &chain_id,
            &round,
            previous_output.as_ref(),
            &dealers,
            &players,
        )?;
        let share = match &previous_share {
            Some(b) => Some(Share::from_bytes(b).map_err(err)?),
            None => None,
        };
        let mut rng = dkg::seeded_rng(&randomness).map_err(err)?;
        let (dealer, public, private) =
            dkg::start_dealer(&mut rng, &info, &sk(&secret_key)?, share.as_ref()).map_err(err)?;
        Ok(Self {
            inner: Some(dealer),
            public_message: dkg::encode_message(&public),
            private_messages: private
                .into_iter()
                .map(|(p, m)| (p.to_bytes().to_vec(), dkg::encode_message(&m)))
                .collect(),
        })
    }

    /// The public commitment to broadcast to every player.
    #[napi(getter)]
    pub fn public_message(&self) -> Buffer {
        self.public_message.clone().into()
    }

    /// The private dealings, one per player.
    #[napi]
    pub fn private_messages(&self) -> Vec<BlsDkgPrivateMessage> {
        self.private_messages
            .iter()
            .map(|(p, m)| BlsDkgPrivateMessage {
                player: p.clone().into(),
                message: m.clone().into(),
            })
            .collect()
    }

    /// Records a player's acknowledgement.
    #[napi]
    pub fn receive_ack(&mut self, player: Buffer, ack: Buffer) -> Result<()> {
        let dealer = self
            .inner
            .as_mut()
            .ok_or_else(|| err(BlsError::Dkg("dealer already finalized".into())))?;
        let ack = dkg::decode_player_ack(&ack).map_err(err)?;
        dkg::receive_ack(dealer, &pk(&player)?, ack).map_err(err)
    }

    /// Ends dealing: the signed log to publish (acks, or reveals for players
    /// that did not acknowledge). The dealer cannot be used afterwards.
    #[napi]
    pub fn finalize(&mut self) -> Result<Buffer> {
        let dealer = self
            .inner
            .take()
            .ok_or_else(|| err(BlsError::Dkg("dealer already finalized".into())))?;
        Ok(dkg::encode_message(&dkg::finalize_dealer(dealer)).into())
    }
}

/// A player of one DKG / resharing ceremony.
#[napi]
pub struct BlsDkgPlayer {
    inner: Option<dkg::Player>,
    info: dkg::Info,
}

impl std::fmt::Debug for BlsDkgPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsDkgPlayer")
            .field("finalized", &self.inner.is_none())
            .finish()
    }
}

/// A player's result of a ceremony.
#[napi(object)]
pub struct BlsDkgResult {
    /// The public output (`DkgOutput` bytes; the next resharing's `previousOutput`).
    pub output: Buffer,
    /// The group public polynomial (`BlsGroup` bytes).
    pub group: Buffer,
    /// This player's secret share (`null` for observers).
    pub share: Option<Buffer>,
}

#[napi]
impl BlsDkgPlayer {
    /// Joins ceremony `round` on `chainId` as the player holding `secretKey`.
    #[napi(constructor)]
    pub fn new(
        chain_id: BigInt,
        round: BigInt,
        previous_output: Option<Buffer>,
        dealers: Vec<Buffer>,
        players: Vec<Buffer>,
        secret_key: Buffer,
    ) -> Result<Self> {
        let info = dkg_info(
            &chain_id,
            &round,
            previous_output.as_ref(),
            &dealers,
            &players,
        )?;
        let player = dkg::new_player(&info, &sk(&secret_key)?).map_err(err)?;
        Ok(Self {
            inner: Some(player),
            info,
        })
    }

    /// Checks a dealer's messages; returns the acknowledgement to send back,
    /// or `null` if this dealer was already processed. Throws `ERR_BLS_DKG`
    /// for an invalid dealing.
    #[napi]
    pub fn dealer_message(
        &mut self,
        dealer: Buffer,
        public_message: Buffer,
        private_message: Buffer,
    ) -> Result<Option<Buffer>> {
        let player = self
            .inner
            .as_mut()
            .ok_or_else(|| err(BlsError::Dkg("player already finalized".into())))?;
        let public = dkg::decode_dealer_pub_msg(&public_message).map_err(err)?;
        let private = dkg::decode_dealer_priv_msg(&private_message).map_err(err)?;
        let ack = dkg::receive_dealing(player, &pk(&dealer)?, public, private).map_err(err)?;
        Ok(ack.map(|a| dkg::encode_message(&a).into()))
    }

    /// Ends the ceremony with the agreed signed dealer logs (invalid logs are
    /// skipped): this player's share and the public output. `randomness`: 32
    /// bytes (used only for batch-verification weights).
    #[napi]
    pub fn finalize(
        &mut self,
        signed_logs: Vec<Buffer>,
        randomness: Buffer,
    ) -> Result<BlsDkgResult> {
        let player = self
            .inner
            .take()
            .ok_or_else(|| err(BlsError::Dkg("player already finalized".into())))?;
        let logs = agreed_logs(&self.info, &signed_logs)?;
        let mut rng = dkg::seeded_rng(&randomness).map_err(err)?;
        let (output, share) = dkg::finalize_player(&mut rng, player, logs).map_err(err)?;
        Ok(BlsDkgResult {
            output: output.to_bytes().into(),
            group: output.group().to_bytes().into(),
            share: Some(share.to_bytes().into()),
        })
    }
}

/// An observer's view of a ceremony: the public output from the agreed
/// signed dealer logs.
#[napi]
#[allow(clippy::too_many_arguments)]
pub fn bls_dkg_observe(
    chain_id: BigInt,
    round: BigInt,
    previous_output: Option<Buffer>,
    dealers: Vec<Buffer>,
    players: Vec<Buffer>,
    signed_logs_bytes: Vec<Buffer>,
    randomness: Buffer,
) -> Result<BlsDkgResult> {
    let info = dkg_info(
        &chain_id,
        &round,
        previous_output.as_ref(),
        &dealers,
        &players,
    )?;
    let logs = agreed_logs(&info, &signed_logs_bytes)?;
    let mut rng = dkg::seeded_rng(&randomness).map_err(err)?;
    let output = dkg::observe(&mut rng, logs).map_err(err)?;
    Ok(BlsDkgResult {
        output: output.to_bytes().into(),
        group: output.group().to_bytes().into(),
        share: None,
    })
}

/// Output of the trusted dealer for named players.
#[napi(object)]
pub struct BlsPlayersDealing {
    /// The public output (`DkgOutput` bytes), reshareable by a later DKG.
    pub output: Buffer,
    /// The group public polynomial (`BlsGroup` bytes).
    pub group: Buffer,
    /// Players in share-index order (sorted by key bytes).
    pub players: Vec<Buffer>,
    /// `shares[i]` belongs to `players[i]`.
    pub shares: Vec<Buffer>,
}

/// Trusted dealer for named players (devnet / test-network genesis), derived
/// from a secret `seed` of at least 32 bytes. Its output can be reshared by a
/// real DKG later.
#[napi]
pub fn bls_dkg_deal(players: Vec<Buffer>, seed: Buffer) -> Result<BlsPlayersDealing> {
    let keys = players.iter().map(|k| pk(k)).collect::<Result<Vec<_>>>()?;
    let mut rng = dkg::seeded_rng(&seed).map_err(err)?;
    let (output, shares) = dkg::deal_for_players(&mut rng, &keys).map_err(err)?;
    Ok(BlsPlayersDealing {
        output: output.to_bytes().into(),
        group: output.group().to_bytes().into(),
        players: shares
            .iter()
            .map(|(k, _)| k.to_bytes().to_vec().into())
            .collect(),
        shares: shares.iter().map(|(_, s)| s.to_bytes().into()).collect(),
    })
}
