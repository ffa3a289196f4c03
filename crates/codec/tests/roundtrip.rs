//! Property tests: for random valid values of every consensus type,
//! decode(encode(x)) == x and encode(decode(b)) == b, and the size accounting is exact.

use cowboy_codec::*;
use proptest::collection::{btree_set, vec};
use proptest::option;
use proptest::prelude::*;

fn u64_any() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..200,
        (0u32..64).prop_map(|s| 1u64 << s),
        (0u32..64).prop_map(|s| (1u64 << s) - 1),
        any::<u64>(),
    ]
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..=max)
}

fn address() -> impl Strategy<Value = Address> {
    any::<[u8; 20]>().prop_map(Address)
}

fn hash() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

fn sig() -> impl Strategy<Value = [u8; 65]> {
    (any::<[u8; 32]>(), any::<[u8; 32]>(), any::<u8>()).prop_map(|(r, s, v)| {
        let mut out = [0u8; 65];
        out[..32].copy_from_slice(&r);
        out[32..64].copy_from_slice(&s);
        out[64] = v;
        out
    })
}

fn handler() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,63}"
}

fn lib_name() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,63}"
}

/// Canonical source: any text, made canonical by the public helper.
fn source() -> impl Strategy<Value = Vec<u8>> {
    ".{0,40}".prop_map(|s: String| canonicalize_source(&s).into_bytes())
}

fn instruction() -> impl Strategy<Value = Instruction> {
    prop_oneof![
        (address(), u64_any()).prop_map(|(to, amount)| Instruction::Transfer { to, amount }),
        (source(), hash(), bytes(16), u64_any()).prop_map(|(source, salt, init_args, value)| {
            Instruction::Deploy {
                source,
                salt,
                init_args,
                value,
            }
        }),
        (address(), handler(), bytes(16), u64_any()).prop_map(|(to, handler, args, value)| {
            Instruction::Call {
                to,
                handler,
                args,
                value,
            }
        }),
        (
            address(),
            u64_any(),
            handler(),
            bytes(16),
            option::of(1u64..=u64::MAX)
        )
            .prop_map(|(actor, fire_at_height, handler, data, interval)| {
                Instruction::ScheduleTimer {
                    actor,
                    fire_at_height,
                    handler,
                    data,
                    interval,
                }
            }),
        (address(), hash())
            .prop_map(|(actor, timer_id)| Instruction::CancelTimer { actor, timer_id }),
        (any::<u8>(), bytes(16))
            .prop_map(|(sub_type, payload)| Instruction::Custom { sub_type, payload }),
        (lib_name(), u64_any(), source()).prop_map(|(name, version, source)| {
            Instruction::PublishLibrary {
                name,
                version,
                source,
            }
        }),
        (
            proptest::array::uniform32(any::<u8>()),
            proptest::array::uniform32(any::<u8>()),
            u64_any()
        )
            .prop_map(|(a, b, stake)| {
                let mut bls_key = [0u8; 48];
                bls_key[..32].copy_from_slice(&a);
                bls_key[32..].copy_from_slice(&b[..16]);
                let mut proof_of_possession = [0u8; 96];
                for (i, x) in proof_of_possession.iter_mut().enumerate() {
                    *x = a[i % 32] ^ b[(i * 7) % 32];
                }
                Instruction::RegisterValidator {
                    bls_key,
                    proof_of_possession,
                    stake,
                }
            }),
        Just(Instruction::ExitValidator),
        Just(Instruction::WithdrawStake),
        Just(Instruction::UnjailValidator),
        bytes(64).prop_map(|evidence| Instruction::SubmitEvidence { evidence }),
        (address(), hash(), u64_any(), bytes(4), hash()).prop_map(
            |(actor, timer_id, epoch, signers, h)| {
                let mut signature = [0u8; 96];
                for (i, x) in signature.iter_mut().enumerate() {
                    *x = h[i % 32].wrapping_add(i as u8);
                }
                Instruction::SysCancelTimer {
                    actor,
                    timer_id,
                    epoch,
                    signers,
                    signature,
                }
            }
        ),
        (u64_any(), bytes(64)).prop_map(|(ceremony, log)| Instruction::DkgLog { ceremony, log }),
    ]
}

fn access_list() -> impl Strategy<Value = Option<Vec<AccessListEntry>>> {
    option::of(vec(
        (address(), vec(bytes(8), 0..3)).prop_map(|(address, storage_keys)| AccessListEntry {
            address,
            storage_keys,
        }),
        0..3,
    ))
}

fn signers() -> impl Strategy<Value = Vec<AdditionalSigner>> {
    btree_set(address(), 0..4).prop_flat_map(|addrs| {
        let n = addrs.len();
        vec(sig(), n..=n).prop_map(move |sigs| {
            addrs
                .iter()
                .zip(sigs)
                .map(|(address, signature)| AdditionalSigner {
                    address: *address,
                    signature,
                })
                .collect()
        })
    })
}

prop_compose! {
    fn transaction()(
        ids in (u64_any(), u64_any()),
        instruction in instruction(),
        limits in (u64_any(), u64_any(), u64_any(), u64_any(), u64_any(), u64_any()),
        from in address(),
        access_list in access_list(),
        metadata in bytes(12),
        origin in (option::of(hash()), option::of(u64_any()), option::of(u64_any())),
        signature in sig(),
        additional_signers in signers(),
    ) -> Transaction {
        Transaction {
            chain_id: ids.0,
            nonce: ids.1,
            instruction,
            cycles_limit: limits.0,
            cells_limit: limits.1,
            max_fee_per_cycle: limits.2,
            max_fee_per_cell: limits.3,
            max_priority_fee_per_cycle: limits.4,
            max_priority_fee_per_cell: limits.5,
            from,
            access_list,
            metadata,
            origin_tx_hash: origin.0,
            origin_remaining_cycles: origin.1,
            origin_remaining_cells: origin.2,
            signature,
            additional_signers,
        }
    }
}

fn round() -> impl Strategy<Value = Round> {
    (u64_any(), u64_any()).prop_map(|(epoch, view)| Round { epoch, view })
}

prop_compose! {
    fn header()(
        parent in hash(), height in u64_any(), round in round(), proposer in address(),
        timestamp_ms in u64_any(), roots in (hash(), hash(), hash()),
        fees in (u64_any(), u64_any(), u64_any(), u64_any()), parent_seed in bytes(96),
    ) -> BlockHeader {
        BlockHeader {
            parent, height, round, proposer, timestamp_ms,
            state_root: roots.0, tx_root: roots.1, receipts_root: roots.2,
            cycle_basefee: fees.0, cell_basefee: fees.1, cycles_used: fees.2, cells_used: fees.3,
            parent_seed,
        }
    }
}

fn status() -> impl Strategy<Value = ReceiptStatus> {
    (0u8..5).prop_map(|s| ReceiptStatus::from_u8(s).unwrap())
}

prop_compose! {
    fn receipt()(
        tx_hash in hash(), status in status(), used in (u64_any(), u64_any(), u64_any()),
        return_data in bytes(16), error in option::of(".{0,20}"),
        events in vec((address(), bytes(8), bytes(8))
            .prop_map(|(emitter, topic, data)| Event { emitter, topic, data }), 0..3),
    ) -> Receipt {
        Receipt {
            tx_hash, status, cycles_used: used.0, cells_used: used.1, fee_paid: used.2,
            return_data, error, events,
        }
    }
}

prop_compose! {
    fn certificate()(
        kind in (0u8..3).prop_map(|k| CertificateKind::from_u8(k).unwrap()),
        block_hash in hash(), height in u64_any(), round in round(),
        aggregated_signature in bytes(96), signer_bitmap in bytes(8),
    ) -> Certificate {
        Certificate { kind, block_hash, height, round, aggregated_signature, signer_bitmap }
    }
}

fn check<T: Canonical + PartialEq + std::fmt::Debug>(x: &T) -> Result<(), TestCaseError> {
    let b = x.encode();
    prop_assert_eq!(b.len(), commonware_codec::EncodeSize::encode_size(x));
    let y = T::decode(&b).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&y, x);
    prop_assert_eq!(y.encode(), b);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn transactions_round_trip(tx in transaction()) {
        prop_assert!(tx.validate().is_ok());
        check(&tx)?;
        // The signing hash ignores signatures and equals keccak of the zeroed encoding.
        prop_assert_eq!(tx.signing_hash(), keccak256(&tx.unsigned().encode()));
    }

    #[test]
    fn instructions_round_trip(ins in instruction()) {
        check(&ins)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn headers_round_trip(h in header()) {
        check(&h)?;
        prop_assert_eq!(h.hash(), keccak256(&h.encode()));
    }

    #[test]
    fn blocks_round_trip(header in header(), transactions in vec(transaction(), 0..4)) {
        let b = Block { header, transactions };
        check(&b)?;
    }

    #[test]
    fn receipts_round_trip(r in receipt()) {
        check(&r)?;
    }

    #[test]
    fn certificates_round_trip(c in certificate()) {
        check(&c)?;
    }

    #[test]
    fn rounds_round_trip_and_order(a in round(), b in round()) {
        check(&a)?;
        prop_assert_eq!(a < b, (a.epoch, a.view) < (b.epoch, b.view));
    }
}
