//! Distributed key generation and resharing, end to end in memory.

use cowboy_bls::{
    Error, PrivateKey, PublicKey, Round, Share,
    dkg::{self, DkgOutput, Logs},
    seed::{recover_seed, sign_seed_partial},
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use std::collections::BTreeMap;

const CHAIN: u64 = 7;

fn validators(seed: u8, n: usize) -> Vec<PrivateKey> {
    (0..n)
        .map(|i| PrivateKey::from_ikm(&[seed.wrapping_add(i as u8); 32]).unwrap())
        .collect()
}

/// Runs one ceremony where every dealer and player is honest and online.
fn ceremony(
    rng: &mut ChaCha20Rng,
    round: u64,
    previous: Option<(&DkgOutput, &BTreeMap<PublicKey, Share>)>,
    dealers: &[PrivateKey],
    players: &[PrivateKey],
) -> (DkgOutput, BTreeMap<PublicKey, Share>) {
    let dealer_pks: Vec<_> = dealers.iter().map(PrivateKey::public_key).collect();
    let player_pks: Vec<_> = players.iter().map(PrivateKey::public_key).collect();
    let info = dkg::info(
        CHAIN,
        round,
        previous.map(|p| p.0),
        &dealer_pks,
        &player_pks,
    )
    .unwrap();
    let mut state: BTreeMap<PublicKey, dkg::Player> = players
        .iter()
        .map(|k| (k.public_key(), dkg::new_player(&info, k).unwrap()))
        .collect();
    let mut logs = Logs::new(info.clone());
    for d in dealers {
        let prev_share = previous.map(|(_, shares)| &shares[&d.public_key()]);
        let (mut dealer, public, private) = dkg::start_dealer(rng, &info, d, prev_share).unwrap();
        for (player, msg) in private {
            let ack = state
                .get_mut(&player)
                .unwrap()
                .dealer_message::<commonware_utils::N3f1>(
                    d.public_key().as_commonware().clone(),
                    public.clone(),
                    msg,
                )
                .unwrap()
                .unwrap();
            dealer
                .receive_player_ack(player.as_commonware().clone(), ack)
                .unwrap();
        }
        let signed = dealer.finalize::<commonware_utils::N3f1>();
        let (who, log) = signed.check(&info).unwrap();
        logs.record(who, log);
    }
    let observed = dkg::observe(rng, logs.clone()).unwrap();
    let mut shares = BTreeMap::new();
    for (pk, player) in state {
        let (output, share) = dkg::finalize_player(rng, player, logs.clone()).unwrap();
        assert_eq!(output, observed);
        shares.insert(pk, share);
    }
    (observed, shares)
}

fn seed_works(output: &DkgOutput, shares: &BTreeMap<PublicKey, Share>) {
    let group = output.group();
    let round = Round { epoch: 1, view: 5 };
    let partials: Vec<_> = shares
        .values()
        .map(|s| sign_seed_partial(s, CHAIN, &round))
        .collect();
    let seed = recover_seed(&group, CHAIN, &round, &partials).unwrap();
    seed.verify(CHAIN, &group.public_key()).unwrap();
    for (pk, s) in shares {
        assert_eq!(output.player_index(pk), Some(s.index()));
    }
}

#[test]
fn dkg_then_reshare_keeps_the_group_key() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let v = validators(1, 4);
    let (out0, shares0) = ceremony(&mut rng, 0, None, &v, &v);
    assert_eq!(out0.group().total(), 4);
    assert_eq!(out0.group().threshold(), 3);
    assert!(out0.revealed().is_empty());
    seed_works(&out0, &shares0);

    // Reshare to a bigger set: three old validators deal, five new players.
    let mut next = v[..3].to_vec();
    next.extend(validators(100, 2));
    let (out1, shares1) = ceremony(&mut rng, 1, Some((&out0, &shares0)), &v[..3], &next);
    assert_eq!(out1.group().public_key(), out0.group().public_key());
    assert_eq!(out1.group().total(), 5);
    assert_eq!(out1.group().threshold(), 4);
    seed_works(&out1, &shares1);

    // Outputs round-trip through bytes.
    assert_eq!(DkgOutput::from_bytes(&out1.to_bytes()).unwrap(), out1);
}

#[test]
fn genesis_dealer_output_can_be_reshared() {
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    let v = validators(50, 4);
    let pks: Vec<_> = v.iter().map(PrivateKey::public_key).collect();
    let (out0, shares) = dkg::deal_for_players(&mut rng, &pks).unwrap();
    let shares0: BTreeMap<_, _> = shares.into_iter().collect();
    seed_works(&out0, &shares0);
    let (out1, shares1) = ceremony(&mut rng, 1, Some((&out0, &shares0)), &v, &v);
    assert_eq!(out1.group().public_key(), out0.group().public_key());
    seed_works(&out1, &shares1);
}

#[test]
fn bad_configurations_are_typed_errors() {
    let v = validators(80, 4);
    let pks: Vec<_> = v.iter().map(PrivateKey::public_key).collect();
    assert!(matches!(
        dkg::info(CHAIN, 0, None, &[], &pks),
        Err(Error::Dkg(_))
    ));
    let dup = vec![pks[0].clone(), pks[0].clone()];
    assert!(matches!(
        dkg::info(CHAIN, 0, None, &dup, &pks),
        Err(Error::Dkg(_))
    ));
    // a dealer outside the round
    let info = dkg::info(CHAIN, 0, None, &pks[..3], &pks).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    assert!(matches!(
        dkg::start_dealer(&mut rng, &info, &v[3], None),
        Err(Error::Dkg(_))
    ));
    // an outsider cannot be a player
    let outsider = validators(200, 1);
    assert!(matches!(
        dkg::new_player(&info, &outsider[0]),
        Err(Error::Dkg(_))
    ));
}

#[test]
fn messages_round_trip_through_bytes() {
    let mut rng = ChaCha20Rng::seed_from_u64(24);
    let v = validators(120, 4);
    let pks: Vec<_> = v.iter().map(PrivateKey::public_key).collect();
    let info = dkg::info(CHAIN, 0, None, &pks, &pks).unwrap();
    let mut players: Vec<_> = v
        .iter()
        .map(|k| dkg::new_player(&info, k).unwrap())
        .collect();
    let mut signed = Vec::new();
    for d in &v {
        let (mut dealer, public, private) = dkg::start_dealer(&mut rng, &info, d, None).unwrap();
        let public_bytes = dkg::encode_message(&public);
        for (player, msg) in private {
            let i = pks.iter().position(|p| *p == player).unwrap();
            let priv_bytes = dkg::encode_message(&msg);
            let ack = players[i]
                .dealer_message::<commonware_utils::N3f1>(
                    d.public_key().as_commonware().clone(),
                    dkg::decode_dealer_pub_msg(&public_bytes).unwrap(),
                    dkg::decode_dealer_priv_msg(&priv_bytes).unwrap(),
                )
                .unwrap()
                .unwrap();
            let ack = dkg::decode_player_ack(&dkg::encode_message(&ack)).unwrap();
            dealer
                .receive_player_ack(player.as_commonware().clone(), ack)
                .unwrap();
        }
        let log = dealer.finalize::<commonware_utils::N3f1>();
        signed.push(dkg::decode_signed_dealer_log(&dkg::encode_message(&log)).unwrap());
    }
    let logs = dkg::collect_logs(&info, signed);
    let out = dkg::observe(&mut rng, logs.clone()).unwrap();
    let (out0, share0) = dkg::finalize_player(&mut rng, players.remove(0), logs).unwrap();
    assert_eq!(out, out0);
    assert_eq!(
        out.group().partial_public_key(share0.index()).unwrap(),
        share0.public_key()
    );
    // garbage is a typed error
    assert!(matches!(
        dkg::decode_dealer_pub_msg(&[1, 2, 3]),
        Err(Error::Malformed { .. })
    ));
    assert!(matches!(
        dkg::decode_player_ack(&[]),
        Err(Error::Malformed { .. })
    ));
    assert!(matches!(
        dkg::decode_signed_dealer_log(&[0; 10]),
        Err(Error::Malformed { .. })
    ));
    assert!(matches!(
        dkg::decode_dealer_priv_msg(&[0xff; 32]),
        Err(Error::Malformed { .. })
    ));
}
