//! DKG / resharing helpers for JavaScript (docs/bls.md "DKG and resharing").
//!
//! The ceremony's state machines are `BlsDkgDealer`, `BlsDkgPlayer` and
//! `blsDkgObserve` (bls.rs). This module adds what a node needs around them to
//! run a ceremony deterministically:
//!
//! * [`BlsDkgInfo`]: one ceremony's configuration, with the dealers and the
//!   players in canonical order (share index = position among the players),
//!   the number of dealer logs the ceremony needs, and authentication of
//!   signed dealer logs (`checkLog`);
//! * [`bls_dkg_output_info`]: the public facts of a ceremony output (group key,
//!   threshold, partial-key group bytes for `BlsGroup`, players, dealers,
//!   revealed players);
//! * [`bls_dkg_derived_randomness`]: the 32 secret bytes a participant feeds
//!   to `BlsDkgDealer` / `finalize` / `blsDkgObserve`, derived from its own
//!   secret key and the ceremony number, so a node never needs a random
//!   source and a restarted dealer deals the same polynomial again.
//!
//! Errors are thrown with `code = ERR_BLS_<CODE>` like the rest of the BLS
//! bindings.

// `mod dkg;` is private in lib.rs; in `cargo test` builds napi-derive emits no
// registration code, so the exported items would look unused there.
#![cfg_attr(test, allow(dead_code))]

use cowboy_bls::{
    PrivateKey, PublicKey,
    dkg::{self, DkgOutput},
    threshold::threshold_for,
};
use napi::bindgen_prelude::{BigInt, Buffer};
use napi_derive::napi;

// Errors are the BLS bindings' own (`ERR_BLS_<CODE>`).
use crate::bls::{Result, err, u64_of};

fn keys(list: &[Buffer]) -> Result<Vec<PublicKey>> {
    list.iter()
        .map(|k| PublicKey::from_bytes(k).map_err(err))
        .collect()
}

/// Keys in canonical (byte) order: the order of the ceremony's sets, so a
/// player's share index is its position in the sorted player list.
fn sorted(mut list: Vec<PublicKey>) -> Vec<PublicKey> {
    list.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    list
}

fn bufs(list: &[PublicKey]) -> Vec<Buffer> {
    list.iter().map(|k| k.to_bytes().to_vec().into()).collect()
}

/// The number of usable dealer logs a ceremony needs: the dealers' quorum,
/// and when resharing at least the previous output's threshold.
fn required_logs(dealers: usize, previous: Option<&DkgOutput>) -> u32 {
    let dealers = threshold_for(u32::try_from(dealers).unwrap_or(u32::MAX));
    let previous = previous.map_or(0, |p| {
        threshold_for(u32::try_from(p.players().len()).unwrap_or(u32::MAX))
    });
    dealers.max(previous)
}

/// An authenticated dealer log's summary (`BlsDkgInfo.checkLog`).
#[napi(object)]
pub struct BlsDkgLogSummary {
    /// The 48-byte key of the dealer that signed the log (one of the ceremony's dealers).
    pub dealer: Buffer,
    /// Players that acknowledged their dealing, in canonical order.
    pub acks: Vec<Buffer>,
    /// Players whose dealing the log reveals publicly (no acknowledgement).
    pub reveals: Vec<Buffer>,
    /// More players than tolerated did not acknowledge: the log carries no
    /// results and is never used.
    pub too_many_reveals: bool,
}

impl std::fmt::Debug for BlsDkgLogSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsDkgLogSummary")
            .field("acks", &self.acks.len())
            .field("reveals", &self.reveals.len())
            .field("too_many_reveals", &self.too_many_reveals)
            .finish()
    }
}

/// One ceremony's configuration: `dkg::info` plus canonical orders.
/// Invariants: `dealers` and `players` are sorted by key bytes and
/// duplicate-free; `required` ≥ 1.
#[napi]
pub struct BlsDkgInfo {
    info: dkg::Info,
    round: u64,
    dealers: Vec<PublicKey>,
    players: Vec<PublicKey>,
    required: u32,
}

impl std::fmt::Debug for BlsDkgInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsDkgInfo")
            .field("round", &self.round)
            .field("dealers", &self.dealers.len())
            .field("players", &self.players.len())
            .field("required", &self.required)
            .finish()
    }
}

#[napi]
impl BlsDkgInfo {
    /// The configuration of ceremony `round` on `chainId` (same arguments as
    /// `BlsDkgDealer` / `BlsDkgPlayer`). `previousOutput` (the last successful
    /// output) makes it a resharing: dealers must be players of it, at least
    /// its threshold of them. Throws `ERR_BLS_DKG` for an invalid
    /// configuration, `ERR_BLS_MALFORMED` for bad output bytes.
    #[napi(constructor)]
    pub fn new(
        chain_id: BigInt,
        round: BigInt,
        previous_output: Option<Buffer>,
        dealers: Vec<Buffer>,
        players: Vec<Buffer>,
    ) -> Result<Self> {
        let chain_id = u64_of("chainId", &chain_id)?;
        let round = u64_of("round", &round)?;
        let previous = match &previous_output {
            Some(b) => Some(DkgOutput::from_bytes(b).map_err(err)?),
            None => None,
        };
        let dealers = keys(&dealers)?;
        let players = keys(&players)?;
        let info =
            dkg::info(chain_id, round, previous.as_ref(), &dealers, &players).map_err(err)?;
        let required = required_logs(dealers.len(), previous.as_ref());
        Ok(Self {
            info,
            round,
            dealers: sorted(dealers),
            players: sorted(players),
            required,
        })
    }

    /// The ceremony number.
    #[napi(getter)]
    pub fn round(&self) -> BigInt {
        BigInt::from(self.round)
    }

    /// Dealers in canonical (key-byte) order.
    #[napi(getter)]
    pub fn dealers(&self) -> Vec<Buffer> {
        bufs(&self.dealers)
    }

    /// Players in canonical order: `players[i]` will hold share index `i`.
    #[napi(getter)]
    pub fn players(&self) -> Vec<Buffer> {
        bufs(&self.players)
    }

    /// Usable dealer logs needed to finish (the first `required` usable logs
    /// in dealer order are the ones used).
    #[napi(getter)]
    pub fn required(&self) -> u32 {
        self.required
    }

    /// The threshold of the new sharing (`n - (n - 1) / 3` of the players).
    #[napi(getter)]
    pub fn threshold(&self) -> u32 {
        threshold_for(u32::try_from(self.players.len()).unwrap_or(u32::MAX))
    }

    /// Players a dealer may reveal (leave unacknowledged) and still have a
    /// usable log: `(n - 1) / 3` of the players.
    #[napi(getter)]
    pub fn max_reveals(&self) -> u32 {
        let n = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
        n - threshold_for(n)
    }

    /// Authenticates signed dealer-log bytes: the summary if the log is
    /// signed by one of this ceremony's dealers over this ceremony, `null`
    /// otherwise. Throws `ERR_BLS_MALFORMED` for bytes that do not decode.
    /// The dealings inside are verified only when the logs are used.
    #[napi]
    pub fn check_log(&self, log: Buffer) -> Result<Option<BlsDkgLogSummary>> {
        let signed = dkg::decode_signed_dealer_log(&log).map_err(err)?;
        let Some(summary) = dkg::check_log(&self.info, signed) else {
            return Ok(None);
        };
        if !self.dealers.contains(&summary.dealer) {
            return Ok(None);
        }
        Ok(Some(BlsDkgLogSummary {
            dealer: summary.dealer.to_bytes().to_vec().into(),
            acks: bufs(&summary.acks),
            reveals: bufs(&summary.reveals),
            too_many_reveals: summary.too_many_reveals,
        }))
    }
}

/// The public facts of a ceremony output (`blsDkgOutputInfo`).
#[napi(object)]
pub struct BlsDkgOutputInfo {
    /// The 48-byte group public key (seeds verify against it).
    pub group_public_key: Buffer,
    /// The group public polynomial (`BlsGroup` bytes: partial public keys,
    /// recovery, seed verification).
    pub group: Buffer,
    /// Partials needed to recover a threshold signature.
    pub threshold: u32,
    /// Players in share-index order (`players[i]` holds share `i`).
    pub players: Vec<Buffer>,
    /// Dealers whose dealings make up the output.
    pub dealers: Vec<Buffer>,
    /// Players whose shares were revealed publicly by enough dealers (their
    /// shares must be treated as known to everyone).
    pub revealed: Vec<Buffer>,
}

impl std::fmt::Debug for BlsDkgOutputInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlsDkgOutputInfo")
            .field("threshold", &self.threshold)
            .field("players", &self.players.len())
            .finish()
    }
}

/// Decodes a ceremony output (`BlsDkgResult.output`, `BlsPlayersDealing.output`).
/// Throws `ERR_BLS_MALFORMED` for bytes that do not decode.
#[napi]
pub fn bls_dkg_output_info(output: Buffer) -> Result<BlsDkgOutputInfo> {
    let o = DkgOutput::from_bytes(&output).map_err(err)?;
    let group = o.group();
    Ok(BlsDkgOutputInfo {
        group_public_key: group.public_key().to_bytes().to_vec().into(),
        group: group.to_bytes().into(),
        threshold: group.threshold(),
        players: bufs(&o.players()),
        dealers: bufs(&o.dealers()),
        revealed: bufs(&o.revealed()),
    })
}

/// 32 secret bytes for ceremony `round` on `chainId`, derived from the
/// participant's 32-byte BLS `secretKey` and a `purpose` label (use `"deal"`
/// for `BlsDkgDealer` and `"finalize"` for `BlsDkgPlayer.finalize`):
/// `SHA-256("cowboy-v1/dkg-derived-randomness" ‖ secretKey ‖ chainId:u64 BE ‖
/// round:u64 BE ‖ len(purpose):u32 BE ‖ purpose)`. Deterministic (a restarted
/// dealer deals the same polynomial again), secret to the key holder; never
/// reuse a ceremony number.
#[napi]
pub fn bls_dkg_derived_randomness(
    secret_key: Buffer,
    chain_id: BigInt,
    round: BigInt,
    purpose: String,
) -> Result<Buffer> {
    let sk = PrivateKey::from_bytes(&secret_key).map_err(err)?;
    Ok(dkg::derive_randomness(
        &sk,
        u64_of("chainId", &chain_id)?,
        u64_of("round", &round)?,
        purpose.as_bytes(),
    )
    .to_vec()
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pk(b: u8) -> PublicKey {
        PrivateKey::from_ikm(&[b; 32]).unwrap().public_key()
    }

    #[test]
    fn required_logs_is_the_larger_quorum() {
        assert_eq!(required_logs(4, None), 3);
        assert_eq!(required_logs(1, None), 1);
        let players: Vec<PublicKey> = (1..=7).map(pk).collect();
        let mut rng = dkg::seeded_rng(&[5; 32]).unwrap();
        let (out, _) = dkg::deal_for_players(&mut rng, &players).unwrap();
        // 7 previous players need 5 dealings even if only 4 dealers are asked.
        assert_eq!(required_logs(4, Some(&out)), 5);
        assert_eq!(required_logs(10, Some(&out)), 7);
    }

    #[test]
    fn sorted_is_canonical_byte_order() {
        let list = sorted(vec![pk(3), pk(1), pk(2)]);
        assert!(list.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        // The dealt output orders its players the same way.
        let mut rng = dkg::seeded_rng(&[6; 32]).unwrap();
        let (out, _) = dkg::deal_for_players(&mut rng, &[pk(3), pk(1), pk(2)]).unwrap();
        assert_eq!(out.players(), list);
    }
}
