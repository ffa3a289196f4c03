//! Distributed key generation and resharing for real networks: commonware's
//! Joint-Feldman DKG / Desmedt resharing (`feldman_desmedt`), with Cowboy's
//! choices fixed:
//!
//! * variant MinPk (group key in G1, like validator keys);
//! * participant identities are the validators' BLS keys themselves
//!   ([`PublicKey`] / [`PrivateKey`]): acknowledgements and dealer logs are
//!   signed with them;
//! * namespace [`Domain::Dkg`] of the chain; fault model `N3f1`
//!   (`t = n - (n - 1) / 3`); evaluation points `i + 1`
//!   (`Mode::NonZeroCounter`); reveal calculation `Reveal::V1`.
//!
//! Flow (one ceremony, numbered by `round`, which must increase on every
//! attempt including failed ones):
//! 1. everybody builds the same [`info`] (dealers, players, previous output
//!    when resharing);
//! 2. each dealer calls [`start_dealer`] and sends the public message to all
//!    players and each private message to its player over an authenticated,
//!    encrypted channel;
//! 3. each player feeds messages to its [`Player`] (`dealer_message`) and returns
//!    the acknowledgement to the dealer (`receive_player_ack`);
//! 4. dealers `finalize` into signed logs, which are agreed on (e.g. through
//!    the chain); `SignedDealerLog::check` authenticates each;
//! 5. players call [`finalize_player`] to get their [`Share`] and the public
//!    [`DkgOutput`]; anyone else calls [`observe`] for the output alone.
//!
//! Resharing keeps the group public key: dealers must be players of the
//! previous output and pass their previous share to [`start_dealer`].

use crate::{
    domain::Domain,
    error::{Error, Result},
    keys::{PrivateKey, PublicKey},
    threshold::{GroupPublic, MAX_PARTICIPANTS, Share},
};
use commonware_codec::{Copying, Decode, DecodeExt, Encode};
use commonware_cryptography::bls12381::{
    self as cbls,
    dkg::feldman_desmedt as fd,
    primitives::{
        sharing::{Mode, ModeVersion},
        variant::MinPk,
    },
};
use commonware_parallel::Sequential;
use commonware_utils::{N3f1, TryCollect, ordered::Set};
use core::num::NonZeroU32;
use rand_core::CryptoRng;

/// Round configuration shared by all participants of one ceremony.
pub type Info = fd::Info<MinPk, cbls::PublicKey>;
/// A dealer's state machine.
pub type Dealer = fd::Dealer<MinPk, cbls::PrivateKey>;
/// A player's state machine.
pub type Player = fd::Player<MinPk, cbls::PrivateKey>;
/// The commitment a dealer broadcasts.
pub type DealerPubMsg = fd::DealerPubMsg<MinPk>;
/// The private dealing sent to one player.
pub type DealerPrivMsg = fd::DealerPrivMsg;
/// A player's acknowledgement of a dealing.
pub type PlayerAck = fd::PlayerAck<cbls::PublicKey>;
/// A dealer's signed transcript.
pub type SignedDealerLog = fd::SignedDealerLog<MinPk, cbls::PublicKey>;
/// The agreed set of dealer logs.
pub type Logs = fd::Logs<MinPk, cbls::PublicKey, N3f1>;

fn dkg_err(e: impl core::fmt::Display) -> Error {
    Error::Dkg(e.to_string())
}

fn to_set(keys: &[PublicKey]) -> Result<Set<cbls::PublicKey>> {
    let n = keys.len();
    let set: Set<cbls::PublicKey> = keys
        .iter()
        .map(|k| k.as_commonware().clone())
        .try_collect()
        .map_err(|_| Error::Dkg("duplicate participant".into()))?;
    if set.len() != n {
        return Err(Error::Dkg("duplicate participant".into()));
    }
    Ok(set)
}

/// The public output of a ceremony (or of [`deal_for_players`]): the group
/// polynomial, dealers, players (sorted by key bytes; share index = position)
/// and players whose shares may have been revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DkgOutput(pub(crate) fd::Output<MinPk, cbls::PublicKey>);

impl DkgOutput {
    /// The group public polynomial (threshold verification, seeds).
    pub fn group(&self) -> GroupPublic {
        GroupPublic(self.0.public().clone())
    }

    /// Players in share-index order.
    pub fn players(&self) -> Vec<PublicKey> {
        self.0
            .players()
            .iter()
            .cloned()
            .map(PublicKey::from_commonware)
            .collect()
    }

    /// Dealers whose dealings were used.
    pub fn dealers(&self) -> Vec<PublicKey> {
        self.0
            .dealers()
            .iter()
            .cloned()
            .map(PublicKey::from_commonware)
            .collect()
    }

    /// Players whose shares may have been revealed.
    pub fn revealed(&self) -> Vec<PublicKey> {
        self.0
            .revealed()
            .iter()
            .cloned()
            .map(PublicKey::from_commonware)
            .collect()
    }

    /// Share index of `player`, if it is one.
    pub fn player_index(&self, player: &PublicKey) -> Option<u32> {
        self.0
            .players()
            .position(player.as_commonware())
            .map(|i| i as u32)
    }

    /// Canonical bytes (commonware `Output` encoding).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.encode().to_vec()
    }

    /// Strict decode (at most [`MAX_PARTICIPANTS`] participants).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let cfg = (
            NonZeroU32::new(MAX_PARTICIPANTS).expect("non-zero constant"),
            ModeVersion::v0(),
        );
        fd::Output::<MinPk, cbls::PublicKey>::decode_cfg(Copying(bytes), &cfg)
            .map(Self)
            .map_err(|e| Error::Malformed {
                what: "DkgOutput",
                reason: e.to_string(),
            })
    }
}

/// Trusted dealer for named players (devnet / test-network genesis): like a
/// DKG output, so later ceremonies can reshare from it. Returns the output and
/// each player's share, in share-index order (players sorted by key bytes).
pub fn deal_for_players(
    rng: &mut impl CryptoRng,
    players: &[PublicKey],
) -> Result<(DkgOutput, Vec<(PublicKey, Share)>)> {
    if players.len() > MAX_PARTICIPANTS as usize {
        return Err(Error::InvalidThreshold(format!(
            "at most {MAX_PARTICIPANTS} players"
        )));
    }
    let set = to_set(players)?;
    let (output, shares) = fd::deal::<MinPk, cbls::PublicKey, N3f1>(rng, Mode::NonZeroCounter, set)
        .map_err(dkg_err)?;
    let shares = shares
        .iter_pairs()
        .map(|(k, s)| (PublicKey::from_commonware(k.clone()), Share(s.clone())))
        .collect();
    Ok((DkgOutput(output), shares))
}

/// The configuration of ceremony number `round` on chain `chain_id`.
/// `previous` is the last successful output when resharing (dealers must be
/// among its players, at least its threshold of them).
pub fn info(
    chain_id: u64,
    round: u64,
    previous: Option<&DkgOutput>,
    dealers: &[PublicKey],
    players: &[PublicKey],
) -> Result<Info> {
    Info::new::<N3f1>(
        &Domain::Dkg.namespace(chain_id),
        round,
        previous.map(|p| p.0.clone()),
        Mode::NonZeroCounter,
        fd::Reveal::V1,
        to_set(dealers)?,
        to_set(players)?,
    )
    .map_err(dkg_err)
}

/// Starts a dealer: returns its state, the public commitment for every player
/// and the private dealing for each player. `previous_share` is the dealer's
/// share of the previous output when resharing (`None` for a fresh DKG).
#[allow(clippy::type_complexity)]
pub fn start_dealer(
    rng: &mut impl CryptoRng,
    info: &Info,
    dealer: &PrivateKey,
    previous_share: Option<&Share>,
) -> Result<(Dealer, DealerPubMsg, Vec<(PublicKey, DealerPrivMsg)>)> {
    let (d, public, private) = Dealer::start::<N3f1>(
        rng,
        info.clone(),
        dealer.to_commonware(),
        previous_share.map(|s| s.0.clone()),
    )
    .map_err(dkg_err)?;
    let private = private
        .into_iter()
        .map(|(k, m)| (PublicKey::from_commonware(k), m))
        .collect();
    Ok((d, public, private))
}

/// Records `player`'s acknowledgement at `dealer`.
pub fn receive_ack(dealer: &mut Dealer, player: &PublicKey, ack: PlayerAck) -> Result<()> {
    dealer
        .receive_player_ack(player.as_commonware().clone(), ack)
        .map_err(dkg_err)
}

/// Ends dealing: the signed log to publish (acks, or reveals for players that
/// did not acknowledge).
pub fn finalize_dealer(dealer: Dealer) -> SignedDealerLog {
    dealer.finalize::<N3f1>()
}

/// Feeds a dealer's messages to a player: `Some(ack)` to return to the dealer,
/// `None` if this dealer's messages were already processed.
pub fn receive_dealing(
    player: &mut Player,
    dealer: &PublicKey,
    public: DealerPubMsg,
    private: DealerPrivMsg,
) -> Result<Option<PlayerAck>> {
    player
        .dealer_message::<N3f1>(dealer.as_commonware().clone(), public, private)
        .map_err(dkg_err)
}

/// A player's state for one ceremony.
pub fn new_player(info: &Info, player: &PrivateKey) -> Result<Player> {
    Player::new(info.clone(), player.to_commonware()).map_err(dkg_err)
}

/// Ends a ceremony for a player: its share and the public output.
pub fn finalize_player(
    rng: &mut impl CryptoRng,
    player: Player,
    logs: Logs,
) -> Result<(DkgOutput, Share)> {
    player
        .finalize::<N3f1>(rng, logs, &Sequential)
        .map(|(o, s)| (DkgOutput(o), Share(s)))
        .map_err(dkg_err)
}

/// Ends a ceremony for an observer: the public output only.
pub fn observe(rng: &mut impl CryptoRng, logs: Logs) -> Result<DkgOutput> {
    fd::observe::<MinPk, cbls::PublicKey, N3f1>(rng, logs, &Sequential)
        .map(DkgOutput)
        .map_err(dkg_err)
}

/// Canonical bytes of any DKG message or output (commonware encoding), for
/// transport between dealers, players and observers.
pub fn encode_message(msg: &impl Encode) -> Vec<u8> {
    msg.encode().to_vec()
}

fn malformed(what: &'static str) -> impl Fn(commonware_codec::Error) -> Error {
    move |e| Error::Malformed {
        what,
        reason: e.to_string(),
    }
}

fn max_participants() -> NonZeroU32 {
    NonZeroU32::new(MAX_PARTICIPANTS).expect("non-zero constant")
}

/// Strict decode of a dealer's public commitment.
pub fn decode_dealer_pub_msg(bytes: &[u8]) -> Result<DealerPubMsg> {
    DealerPubMsg::decode_cfg(Copying(bytes), &max_participants()).map_err(malformed("DealerPubMsg"))
}

/// Strict decode of a private dealing.
pub fn decode_dealer_priv_msg(bytes: &[u8]) -> Result<DealerPrivMsg> {
    DealerPrivMsg::decode(Copying(bytes)).map_err(malformed("DealerPrivMsg"))
}

/// Strict decode of a player's acknowledgement.
pub fn decode_player_ack(bytes: &[u8]) -> Result<PlayerAck> {
    PlayerAck::decode(Copying(bytes)).map_err(malformed("PlayerAck"))
}

/// Strict decode of a dealer's signed log (not yet authenticated: call
/// `check(&info)` on it).
pub fn decode_signed_dealer_log(bytes: &[u8]) -> Result<SignedDealerLog> {
    SignedDealerLog::decode_cfg(Copying(bytes), &max_participants())
        .map_err(malformed("SignedDealerLog"))
}

/// Authenticates signed dealer logs against `info` and collects the valid
/// ones (invalid or foreign logs are skipped) into the agreed [`Logs`].
pub fn collect_logs(info: &Info, signed: impl IntoIterator<Item = SignedDealerLog>) -> Logs {
    let mut logs = Logs::new(info.clone());
    for s in signed {
        if let Some((dealer, log)) = s.check(info) {
            logs.record(dealer, log);
        }
    }
    logs
}

/// What an authenticated dealer log reports (see [`check_log`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSummary {
    /// The dealer that signed the log (not yet checked against the ceremony's dealers).
    pub dealer: PublicKey,
    /// Players that acknowledged their dealing, in key order.
    pub acks: Vec<PublicKey>,
    /// Players whose dealing the log reveals (no acknowledgement), in key order.
    pub reveals: Vec<PublicKey>,
    /// The dealer gave up: more players than tolerated did not acknowledge, so
    /// the log carries no results and can never be used.
    pub too_many_reveals: bool,
}

/// Authenticates one signed dealer log against `info` (the dealer's signature
/// over this ceremony's transcript and the log) and summarises it; `None` if
/// the signature does not verify. The dealings themselves are checked only
/// when the logs are used ([`finalize_player`], [`observe`]).
pub fn check_log(info: &Info, signed: SignedDealerLog) -> Option<LogSummary> {
    let (dealer, log) = signed.check(info)?;
    let keys = |set: &Set<cbls::PublicKey>| -> Vec<PublicKey> {
        set.iter()
            .cloned()
            .map(PublicKey::from_commonware)
            .collect()
    };
    let (acks, reveals, too_many_reveals) = match log.summary() {
        fd::DealerLogSummary::TooManyReveals => (Vec::new(), Vec::new(), true),
        fd::DealerLogSummary::Ok { acks, reveals } => (keys(&acks), keys(&reveals), false),
    };
    Some(LogSummary {
        dealer: PublicKey::from_commonware(dealer),
        acks,
        reveals,
        too_many_reveals,
    })
}

/// Domain tag of [`derive_randomness`].
pub const DERIVED_RANDOMNESS_DST: &[u8] = b"cowboy-v1/dkg-derived-randomness";

/// 32 secret bytes for ceremony `round` on `chain_id`, derived from a
/// participant's own secret key and a `purpose` label (e.g. `b"deal"`,
/// `b"finalize"`): `SHA-256(DST ‖ secret ‖ chain_id:u64 BE ‖ round:u64 BE ‖
/// len(purpose):u32 BE ‖ purpose)`. Deterministic, so a dealer that restarts
/// mid-ceremony deals exactly the same polynomial again (it never sends two
/// different dealings in one ceremony), and unpredictable to anyone without
/// the key. Safe because ceremony numbers are never reused (see [`info`]).
pub fn derive_randomness(
    secret: &PrivateKey,
    chain_id: u64,
    round: u64,
    purpose: &[u8],
) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(DERIVED_RANDOMNESS_DST);
    h.update(secret.to_bytes());
    h.update(chain_id.to_be_bytes());
    h.update(round.to_be_bytes());
    h.update((purpose.len() as u32).to_be_bytes());
    h.update(purpose);
    h.finalize().into()
}

/// Domain tag of [`seeded_rng`].
pub const RNG_SEED_DST: &[u8] = b"cowboy-v1/dkg-rng";

/// A ChaCha20 CSPRNG keyed by `SHA-256(RNG_SEED_DST ‖ seed)` for callers that
/// bring their own entropy (the native addon passes `crypto.randomBytes(32)`).
/// `seed` must have at least 32 bytes and must be secret for dealers.
pub fn seeded_rng(seed: &[u8]) -> Result<rand_chacha::ChaCha20Rng> {
    use rand_core::SeedableRng;
    use sha2::{Digest, Sha256};
    if seed.len() < 32 {
        return Err(Error::InvalidLength {
            what: "randomness",
            expected: 32,
            got: seed.len(),
        });
    }
    let mut h = Sha256::new();
    h.update(RNG_SEED_DST);
    h.update(seed);
    Ok(rand_chacha::ChaCha20Rng::from_seed(h.finalize().into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> PrivateKey {
        PrivateKey::from_ikm(&[b; 32]).unwrap()
    }

    #[test]
    fn derived_randomness_is_bound_to_key_chain_round_and_purpose() {
        let base = derive_randomness(&key(1), 7, 3, b"deal");
        assert_eq!(base, derive_randomness(&key(1), 7, 3, b"deal"));
        assert_ne!(base, derive_randomness(&key(2), 7, 3, b"deal"));
        assert_ne!(base, derive_randomness(&key(1), 8, 3, b"deal"));
        assert_ne!(base, derive_randomness(&key(1), 7, 4, b"deal"));
        assert_ne!(base, derive_randomness(&key(1), 7, 3, b"finalize"));
    }

    #[test]
    fn check_log_summarises_acks_and_reveals_and_rejects_foreign_rounds() {
        let keys: Vec<PrivateKey> = (1..=4).map(key).collect();
        let pks: Vec<PublicKey> = keys.iter().map(PrivateKey::public_key).collect();
        let info = info(7, 1, None, &pks, &pks).unwrap();
        let mut rng = seeded_rng(&[9; 32]).unwrap();
        let (mut dealer, public, private) = start_dealer(&mut rng, &info, &keys[0], None).unwrap();
        // Three of four players acknowledge; the last is revealed.
        let mut acked = Vec::new();
        for (player, msg) in private.into_iter().take(3) {
            let sk = keys.iter().find(|k| k.public_key() == player).unwrap();
            let mut p = new_player(&info, sk).unwrap();
            let ack = receive_dealing(&mut p, &keys[0].public_key(), public.clone(), msg)
                .unwrap()
                .unwrap();
            receive_ack(&mut dealer, &player, ack).unwrap();
            acked.push(player);
        }
        let signed = finalize_dealer(dealer);
        let bytes = encode_message(&signed);
        let summary = check_log(&info, decode_signed_dealer_log(&bytes).unwrap()).unwrap();
        assert_eq!(summary.dealer, keys[0].public_key());
        assert!(!summary.too_many_reveals);
        acked.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        assert_eq!(summary.acks, acked);
        assert_eq!(summary.reveals.len(), 1);
        // The same log does not authenticate in another ceremony.
        let other = super::info(7, 2, None, &pks, &pks).unwrap();
        assert!(check_log(&other, decode_signed_dealer_log(&bytes).unwrap()).is_none());
    }
}
