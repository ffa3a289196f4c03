//! The typed operation of a transaction (spec §2.1, §2.4): `[category u8, sub_type u8, body]`.
//! Layouts: docs/codec.md §3.

use crate::address::Address;
use crate::constants::*;
use crate::error::CodecError;
use crate::hash::Hash32;
use crate::source::canonical_source;
use crate::wire::*;
use bytes::BufMut;
use commonware_codec::{EncodeSize, Write};

/// The operation a transaction performs.
///
/// Field rules (enforced by the decoder and [`Instruction::validate`]): `source` fields are
/// canonical Python source; `handler` is a 1..=64 byte ASCII identifier; library `name` is
/// 1..=64 bytes of `[a-z_][a-z0-9_]*`; a timer `interval`, when present, is ≥ 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// System(0) / Transfer(1): move `amount` base units to `to`.
    Transfer {
        /// Recipient.
        to: Address,
        /// Amount (encoded as 8-byte big-endian).
        amount: u64,
    },
    /// System(0) / RegisterValidator(2): the sender (the operator account) registers itself as
    /// a validator with `stake` of its own balance (self-stake only) and a BLS key proven by a
    /// proof of possession. Active from the next epoch boundary (spec "Validator Set").
    RegisterValidator {
        /// BLS12-381 (MinPk) public key: 48-byte compressed G1 point (checked by the state
        /// transition, not the codec).
        bls_key: [u8; BLS_PUBLIC_KEY_SIZE],
        /// Proof of possession of `bls_key`'s secret key: 96-byte compressed G2 point.
        proof_of_possession: [u8; BLS_SIGNATURE_SIZE],
        /// Self-stake in base units (encoded as 8-byte big-endian, like amounts).
        stake: u64,
    },
    /// System(0) / ExitValidator(3): the sender's validator starts unbonding (empty body).
    ExitValidator,
    /// System(0) / WithdrawStake(4): the sender's validator, unbonded, takes its stake back
    /// (empty body).
    WithdrawStake,
    /// System(0) / UnjailValidator(5): the sender's validator, whose jail has ended, asks to
    /// rejoin the set at the next epoch (empty body).
    UnjailValidator,
    /// System(0) / SubmitEvidence(6): equivocation evidence against a validator; anyone may
    /// send it.
    SubmitEvidence {
        /// Evidence bytes (`encodeEvidence` of ts/consensus validators; opaque to the codec).
        evidence: Vec<u8>,
    },
    /// System(0) / SysCancelTimer(7): the validator set cancels a timer (spec §5.1a
    /// `SYS_CANCEL_TIMER`); anyone may send it, the authority is the aggregate signature.
    SysCancelTimer {
        /// Actor the timer targets.
        actor: Address,
        /// Timer identifier.
        timer_id: Hash32,
        /// Epoch whose validator set signed.
        epoch: u64,
        /// Signer bitmap over that epoch's set (validator `i` = bit `i % 8` of byte `i / 8`);
        /// opaque to the codec, checked by the state transition.
        signers: Vec<u8>,
        /// BLS aggregate signature (96 bytes) by the signers.
        signature: [u8; BLS_SIGNATURE_SIZE],
    },
    /// System(0) / DkgLog(8): a dealer's signed log of the chain's open resharing ceremony
    /// (docs/execution.md "Validator set"); anyone may send it, the log carries the dealer's
    /// signature.
    DkgLog {
        /// Ceremony number (8-byte big-endian).
        ceremony: u64,
        /// The signed dealer log (opaque to the codec; checked by the state transition).
        log: Vec<u8>,
    },
    /// Actor(1) / Deploy(1): create an actor at `actor_address(from, salt, keccak256(source))`.
    Deploy {
        /// Canonical Python source bytes.
        source: Vec<u8>,
        /// CREATE2-style salt.
        salt: Hash32,
        /// Canonical CBOR constructor arguments (opaque to the codec; may be empty).
        init_args: Vec<u8>,
        /// Value transferred to the new actor (8-byte big-endian).
        value: u64,
    },
    /// Actor(1) / Call(2): invoke `handler` on actor `to`.
    Call {
        /// Target actor.
        to: Address,
        /// Handler name (ASCII identifier, 1..=64 bytes).
        handler: String,
        /// Canonical CBOR arguments (opaque to the codec).
        args: Vec<u8>,
        /// Value transferred with the call (8-byte big-endian).
        value: u64,
    },
    /// Actor(1) / ScheduleTimer(3): schedule `handler` on `actor` at `fire_at_height`.
    ScheduleTimer {
        /// Actor whose handler fires.
        actor: Address,
        /// Block height of the (first) fire.
        fire_at_height: u64,
        /// Handler name (ASCII identifier, 1..=64 bytes).
        handler: String,
        /// Opaque payload delivered to the handler.
        data: Vec<u8>,
        /// `None` = one-shot; `Some(n)` = repeat every `n ≥ 1` blocks.
        interval: Option<u64>,
    },
    /// Actor(1) / CancelTimer(4): cancel timer `timer_id` of `actor`.
    CancelTimer {
        /// Actor owning the timer.
        actor: Address,
        /// Timer identifier.
        timer_id: Hash32,
    },
    /// Custom(2) / any sub_type: application-defined opaque payload.
    Custom {
        /// Application-defined sub type (0..=255).
        sub_type: u8,
        /// Opaque payload.
        payload: Vec<u8>,
    },
    /// Library(3) / Publish(1): publish a Python library `name` at `version`.
    PublishLibrary {
        /// Library name, 1..=64 bytes of `[a-z_][a-z0-9_]*`.
        name: String,
        /// Library version.
        version: u64,
        /// Canonical Python source bytes.
        source: Vec<u8>,
    },
}

/// True if `s` is a valid handler name: 1..=64 bytes, `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_valid_handler(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= MAX_HANDLER_LEN
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// True if `s` is a valid library name: 1..=64 bytes, `[a-z_][a-z0-9_]*`.
pub fn is_valid_library_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= MAX_LIBRARY_NAME_LEN
        && (b[0].is_ascii_lowercase() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

fn check_handler(s: &str, field: &str) -> Result<(), CodecError> {
    if is_valid_handler(s) {
        Ok(())
    } else {
        Err(CodecError::InvalidHandler {
            field: field.to_owned(),
        })
    }
}

fn check_source(s: &[u8], field: &str) -> Result<(), CodecError> {
    canonical_source(s)
        .map(|_| ())
        .map_err(|error| CodecError::Source {
            field: field.to_owned(),
            error,
        })
}

impl Instruction {
    /// `(category, sub_type)` discriminant pair.
    pub fn discriminant(&self) -> (u8, u8) {
        match self {
            Self::Transfer { .. } => (CATEGORY_SYSTEM, SYSTEM_TRANSFER),
            Self::RegisterValidator { .. } => (CATEGORY_SYSTEM, SYSTEM_REGISTER_VALIDATOR),
            Self::ExitValidator => (CATEGORY_SYSTEM, SYSTEM_EXIT_VALIDATOR),
            Self::WithdrawStake => (CATEGORY_SYSTEM, SYSTEM_WITHDRAW_STAKE),
            Self::UnjailValidator => (CATEGORY_SYSTEM, SYSTEM_UNJAIL_VALIDATOR),
            Self::SubmitEvidence { .. } => (CATEGORY_SYSTEM, SYSTEM_SUBMIT_EVIDENCE),
            Self::SysCancelTimer { .. } => (CATEGORY_SYSTEM, SYSTEM_SYS_CANCEL_TIMER),
            Self::DkgLog { .. } => (CATEGORY_SYSTEM, SYSTEM_DKG_LOG),
            Self::Deploy { .. } => (CATEGORY_ACTOR, ACTOR_DEPLOY),
            Self::Call { .. } => (CATEGORY_ACTOR, ACTOR_CALL),
            Self::ScheduleTimer { .. } => (CATEGORY_ACTOR, ACTOR_SCHEDULE_TIMER),
            Self::CancelTimer { .. } => (CATEGORY_ACTOR, ACTOR_CANCEL_TIMER),
            Self::Custom { sub_type, .. } => (CATEGORY_CUSTOM, *sub_type),
            Self::PublishLibrary { .. } => (CATEGORY_LIBRARY, LIBRARY_PUBLISH),
        }
    }

    /// Checks the field rules the decoder enforces (so that an encoder can refuse values
    /// that would not decode). Field paths are prefixed with `instruction.`.
    pub fn validate(&self) -> Result<(), CodecError> {
        match self {
            Self::Deploy { source, .. } => check_source(source, "instruction.source"),
            Self::Call { handler, .. } => check_handler(handler, "instruction.handler"),
            Self::ScheduleTimer {
                handler, interval, ..
            } => {
                check_handler(handler, "instruction.handler")?;
                if *interval == Some(0) {
                    return Err(CodecError::InvalidInterval {
                        field: "instruction.interval".into(),
                    });
                }
                Ok(())
            }
            Self::PublishLibrary { name, source, .. } => {
                if !is_valid_library_name(name) {
                    return Err(CodecError::InvalidLibraryName {
                        field: "instruction.name".into(),
                    });
                }
                check_source(source, "instruction.source")
            }
            Self::Transfer { .. }
            | Self::RegisterValidator { .. }
            | Self::ExitValidator
            | Self::WithdrawStake
            | Self::UnjailValidator
            | Self::SubmitEvidence { .. }
            | Self::SysCancelTimer { .. }
            | Self::DkgLog { .. }
            | Self::CancelTimer { .. }
            | Self::Custom { .. } => Ok(()),
        }
    }
}

impl Write for Instruction {
    fn write(&self, buf: &mut impl BufMut) {
        let (c, s) = self.discriminant();
        buf.put_u8(c);
        buf.put_u8(s);
        match self {
            Self::Transfer { to, amount } => {
                to.0.write(buf);
                amount.write(buf);
            }
            Self::RegisterValidator {
                bls_key,
                proof_of_possession,
                stake,
            } => {
                buf.put_slice(bls_key);
                buf.put_slice(proof_of_possession);
                stake.write(buf);
            }
            Self::ExitValidator | Self::WithdrawStake | Self::UnjailValidator => {}
            Self::SubmitEvidence { evidence } => put_bytes(buf, evidence),
            Self::SysCancelTimer {
                actor,
                timer_id,
                epoch,
                signers,
                signature,
            } => {
                actor.0.write(buf);
                timer_id.write(buf);
                put_varint(buf, *epoch);
                put_bytes(buf, signers);
                buf.put_slice(signature);
            }
            Self::DkgLog { ceremony, log } => {
                ceremony.write(buf);
                put_bytes(buf, log);
            }
            Self::Deploy {
                source,
                salt,
                init_args,
                value,
            } => {
                put_bytes(buf, source);
                salt.write(buf);
                put_bytes(buf, init_args);
                value.write(buf);
            }
            Self::Call {
                to,
                handler,
                args,
                value,
            } => {
                to.0.write(buf);
                put_bytes(buf, handler.as_bytes());
                put_bytes(buf, args);
                value.write(buf);
            }
            Self::ScheduleTimer {
                actor,
                fire_at_height,
                handler,
                data,
                interval,
            } => {
                actor.0.write(buf);
                put_varint(buf, *fire_at_height);
                put_bytes(buf, handler.as_bytes());
                put_bytes(buf, data);
                put_opt_varint(buf, *interval);
            }
            Self::CancelTimer { actor, timer_id } => {
                actor.0.write(buf);
                timer_id.write(buf);
            }
            Self::Custom { payload, .. } => put_bytes(buf, payload),
            Self::PublishLibrary {
                name,
                version,
                source,
            } => {
                put_bytes(buf, name.as_bytes());
                put_varint(buf, *version);
                put_bytes(buf, source);
            }
        }
    }
}

impl EncodeSize for Instruction {
    fn encode_size(&self) -> usize {
        2 + match self {
            Self::Transfer { .. } => ADDRESS_SIZE + 8,
            Self::RegisterValidator { .. } => BLS_PUBLIC_KEY_SIZE + BLS_SIGNATURE_SIZE + 8,
            Self::ExitValidator | Self::WithdrawStake | Self::UnjailValidator => 0,
            Self::SubmitEvidence { evidence } => bytes_size(evidence),
            Self::SysCancelTimer { epoch, signers, .. } => {
                ADDRESS_SIZE
                    + HASH_SIZE
                    + varint_size(*epoch)
                    + bytes_size(signers)
                    + BLS_SIGNATURE_SIZE
            }
            Self::DkgLog { log, .. } => 8 + bytes_size(log),
            Self::Deploy {
                source, init_args, ..
            } => bytes_size(source) + HASH_SIZE + bytes_size(init_args) + 8,
            Self::Call { handler, args, .. } => {
                ADDRESS_SIZE + bytes_size(handler.as_bytes()) + bytes_size(args) + 8
            }
            Self::ScheduleTimer {
                fire_at_height,
                handler,
                data,
                interval,
                ..
            } => {
                ADDRESS_SIZE
                    + varint_size(*fire_at_height)
                    + bytes_size(handler.as_bytes())
                    + bytes_size(data)
                    + opt_varint_size(*interval)
            }
            Self::CancelTimer { .. } => ADDRESS_SIZE + HASH_SIZE,
            Self::Custom { payload, .. } => bytes_size(payload),
            Self::PublishLibrary {
                name,
                version,
                source,
            } => bytes_size(name.as_bytes()) + varint_size(*version) + bytes_size(source),
        }
    }
}

impl Canonical for Instruction {
    const NAME: &'static str = "instruction";

    fn read_from(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let category = r.u8("instruction.category")?;
        let sub_type = r.u8("instruction.sub_type")?;
        let unknown_sub = || CodecError::UnknownSubType { category, sub_type };
        let ins = match category {
            CATEGORY_SYSTEM => match sub_type {
                SYSTEM_TRANSFER => Self::Transfer {
                    to: r.address("instruction.to")?,
                    amount: r.u64_be("instruction.amount")?,
                },
                SYSTEM_REGISTER_VALIDATOR => Self::RegisterValidator {
                    bls_key: r.array("instruction.bls_key")?,
                    proof_of_possession: r.array("instruction.proof_of_possession")?,
                    stake: r.u64_be("instruction.stake")?,
                },
                SYSTEM_EXIT_VALIDATOR => Self::ExitValidator,
                SYSTEM_WITHDRAW_STAKE => Self::WithdrawStake,
                SYSTEM_UNJAIL_VALIDATOR => Self::UnjailValidator,
                SYSTEM_SUBMIT_EVIDENCE => Self::SubmitEvidence {
                    evidence: r.bytes("instruction.evidence")?,
                },
                SYSTEM_SYS_CANCEL_TIMER => Self::SysCancelTimer {
                    actor: r.address("instruction.actor")?,
                    timer_id: r.array("instruction.timer_id")?,
                    epoch: r.varint("instruction.epoch")?,
                    signers: r.bytes("instruction.signers")?,
                    signature: r.array("instruction.signature")?,
                },
                SYSTEM_DKG_LOG => Self::DkgLog {
                    ceremony: r.u64_be("instruction.ceremony")?,
                    log: r.bytes("instruction.log")?,
                },
                _ => return Err(unknown_sub()),
            },
            CATEGORY_ACTOR => match sub_type {
                ACTOR_DEPLOY => {
                    let source = r.bytes("instruction.source")?;
                    check_source(&source, "instruction.source")?;
                    Self::Deploy {
                        source,
                        salt: r.array("instruction.salt")?,
                        init_args: r.bytes("instruction.init_args")?,
                        value: r.u64_be("instruction.value")?,
                    }
                }
                ACTOR_CALL => {
                    let to = r.address("instruction.to")?;
                    let handler = r.string("instruction.handler")?;
                    check_handler(&handler, "instruction.handler")?;
                    Self::Call {
                        to,
                        handler,
                        args: r.bytes("instruction.args")?,
                        value: r.u64_be("instruction.value")?,
                    }
                }
                ACTOR_SCHEDULE_TIMER => {
                    let actor = r.address("instruction.actor")?;
                    let fire_at_height = r.varint("instruction.fire_at_height")?;
                    let handler = r.string("instruction.handler")?;
                    check_handler(&handler, "instruction.handler")?;
                    let data = r.bytes("instruction.data")?;
                    let interval = if r.option_tag("instruction.interval")? {
                        let n = r.varint("instruction.interval")?;
                        if n == 0 {
                            return Err(CodecError::InvalidInterval {
                                field: "instruction.interval".into(),
                            });
                        }
                        Some(n)
                    } else {
                        None
                    };
                    Self::ScheduleTimer {
                        actor,
                        fire_at_height,
                        handler,
                        data,
                        interval,
                    }
                }
                ACTOR_CANCEL_TIMER => Self::CancelTimer {
                    actor: r.address("instruction.actor")?,
                    timer_id: r.array("instruction.timer_id")?,
                },
                _ => return Err(unknown_sub()),
            },
            CATEGORY_CUSTOM => Self::Custom {
                sub_type,
                payload: r.bytes("instruction.payload")?,
            },
            CATEGORY_LIBRARY => match sub_type {
                LIBRARY_PUBLISH => {
                    let name = r.string("instruction.name")?;
                    if !is_valid_library_name(&name) {
                        return Err(CodecError::InvalidLibraryName {
                            field: "instruction.name".into(),
                        });
                    }
                    let version = r.varint("instruction.version")?;
                    let source = r.bytes("instruction.source")?;
                    check_source(&source, "instruction.source")?;
                    Self::PublishLibrary {
                        name,
                        version,
                        source,
                    }
                }
                _ => return Err(unknown_sub()),
            },
            _ => return Err(CodecError::UnknownCategory { category }),
        };
        Ok(ins)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex;

    fn h(s: &str) -> Vec<u8> {
        hex::decode(&s.replace(' ', "")).unwrap()
    }

    /// The hex examples of docs/codec.md §3, byte for byte.
    #[test]
    fn documented_examples() {
        let cases: Vec<(Instruction, &str)> = vec![
            (
                Instruction::Transfer {
                    to: Address([0x22; 20]),
                    amount: 1,
                },
                "0001 2222222222222222222222222222222222222222 0000000000000001",
            ),
            (
                Instruction::Deploy {
                    source: b"x = 1\n".to_vec(),
                    salt: [0x33; 32],
                    init_args: vec![],
                    value: 0,
                },
                "0101 06 78203d20310a 3333333333333333333333333333333333333333333333333333333333333333 00 0000000000000000",
            ),
            (
                Instruction::Call {
                    to: Address([0x44; 20]),
                    handler: "increment".into(),
                    args: vec![0x80],
                    value: 5,
                },
                "0102 4444444444444444444444444444444444444444 09 696e6372656d656e74 01 80 0000000000000005",
            ),
            (
                Instruction::ScheduleTimer {
                    actor: Address([0x55; 20]),
                    fire_at_height: 300,
                    handler: "tick".into(),
                    data: vec![],
                    interval: Some(10),
                },
                "0103 5555555555555555555555555555555555555555 ac02 04 7469636b 00 01 0a",
            ),
            (
                Instruction::ScheduleTimer {
                    actor: Address([0x55; 20]),
                    fire_at_height: 300,
                    handler: "tick".into(),
                    data: vec![],
                    interval: None,
                },
                "0103 5555555555555555555555555555555555555555 ac02 04 7469636b 00 00",
            ),
            (
                Instruction::CancelTimer {
                    actor: Address([0x55; 20]),
                    timer_id: [0x66; 32],
                },
                "0104 5555555555555555555555555555555555555555 6666666666666666666666666666666666666666666666666666666666666666",
            ),
            (
                Instruction::Custom {
                    sub_type: 7,
                    payload: vec![0xde, 0xad, 0xbe, 0xef],
                },
                "0207 04 deadbeef",
            ),
            (
                Instruction::PublishLibrary {
                    name: "math_utils".into(),
                    version: 1,
                    source: b"X = 2\n".to_vec(),
                },
                "0301 0a 6d6174685f7574696c73 01 06 58203d20320a",
            ),
        ];
        for (ins, hexs) in cases {
            let bytes = h(hexs);
            assert_eq!(ins.encode(), bytes, "{ins:?}");
            assert_eq!(Instruction::decode(&bytes).unwrap(), ins);
        }
    }

    /// The validator-set examples of docs/codec.md §3 (System sub-types 2..=8).
    #[test]
    fn documented_system_examples() {
        let k = "77".repeat(48);
        let p = "88".repeat(96);
        let g = "99".repeat(96);
        let cases: Vec<(Instruction, String)> = vec![
            (
                Instruction::RegisterValidator {
                    bls_key: [0x77; 48],
                    proof_of_possession: [0x88; 96],
                    stake: 10_000,
                },
                format!("0002 {k} {p} 0000000000002710"),
            ),
            (Instruction::ExitValidator, "0003".into()),
            (Instruction::WithdrawStake, "0004".into()),
            (Instruction::UnjailValidator, "0005".into()),
            (
                Instruction::SubmitEvidence {
                    evidence: vec![0xab, 0xcd],
                },
                "0006 02 abcd".into(),
            ),
            (
                Instruction::SysCancelTimer {
                    actor: Address([0x55; 20]),
                    timer_id: [0x66; 32],
                    epoch: 300,
                    signers: vec![0x07],
                    signature: [0x99; 96],
                },
                format!(
                    "0007 5555555555555555555555555555555555555555 {} ac02 01 07 {g}",
                    "66".repeat(32)
                ),
            ),
            (
                Instruction::DkgLog {
                    ceremony: 3,
                    log: vec![0xab, 0xcd],
                },
                "0008 0000000000000003 02 abcd".into(),
            ),
        ];
        for (ins, hexs) in cases {
            let bytes = h(&hexs);
            assert_eq!(ins.encode(), bytes, "{ins:?}");
            assert_eq!(ins.encode_size(), bytes.len(), "{ins:?}");
            assert_eq!(Instruction::decode(&bytes).unwrap(), ins);
            assert_eq!(ins.validate(), Ok(()));
            // strict: every proper prefix is short, one more byte is trailing
            for cut in 2..bytes.len() {
                let code = Instruction::decode(&bytes[..cut]).unwrap_err().code();
                assert!(
                    code == "UNEXPECTED_EOF" || code == "LENGTH_OVERFLOW",
                    "{ins:?} cut at {cut}: {code}"
                );
            }
            let mut long = bytes.clone();
            long.push(0);
            assert_eq!(
                Instruction::decode(&long).unwrap_err().code(),
                "TRAILING_BYTES",
                "{ins:?}"
            );
        }
        // a non-minimal epoch varint is refused
        let mut b = h(&format!(
            "0007 {} {} 8000 00 {g}",
            "55".repeat(20),
            "66".repeat(32)
        ));
        assert_eq!(
            Instruction::decode(&b).unwrap_err().code(),
            "NON_MINIMAL_VARINT"
        );
        // a signers length beyond the input is refused
        b = h(&format!(
            "0007 {} {} 00 ff01 {g}",
            "55".repeat(20),
            "66".repeat(32)
        ));
        assert!(Instruction::decode(&b).is_err());
    }

    #[test]
    fn unknown_discriminants() {
        assert_eq!(
            Instruction::decode(&[4, 1]).unwrap_err().code(),
            "UNKNOWN_CATEGORY"
        );
        for (c, s) in [(0u8, 0u8), (0, 9), (0, 255), (1, 0), (1, 5), (3, 0), (3, 2)] {
            assert_eq!(
                Instruction::decode(&[c, s, 0, 0, 0]).unwrap_err().code(),
                "UNKNOWN_SUB_TYPE",
                "{c}/{s}"
            );
        }
        // Custom accepts every sub_type.
        for s in 0..=255u8 {
            assert_eq!(
                Instruction::decode(&[2, s, 0]).unwrap(),
                Instruction::Custom {
                    sub_type: s,
                    payload: vec![]
                }
            );
        }
    }

    #[test]
    fn name_rules() {
        assert!(is_valid_handler("_x9"));
        assert!(is_valid_handler("Increment"));
        assert!(is_valid_handler(&"a".repeat(64)));
        assert!(!is_valid_handler(&"a".repeat(65)));
        assert!(!is_valid_handler(""));
        assert!(!is_valid_handler("9x"));
        assert!(!is_valid_handler("a-b"));
        assert!(!is_valid_handler("caf\u{e9}"));
        assert!(is_valid_library_name("math_utils2"));
        assert!(!is_valid_library_name("Math"));
        assert!(!is_valid_library_name("2math"));
        assert!(!is_valid_library_name(""));
        assert!(!is_valid_library_name(&"a".repeat(65)));
    }

    #[test]
    fn field_rules_are_enforced_on_decode() {
        let bad_handler = Instruction::Call {
            to: Address::ZERO,
            handler: "not-valid".into(),
            args: vec![],
            value: 0,
        };
        let e = Instruction::decode(&bad_handler.encode()).unwrap_err();
        assert_eq!(e.code(), "INVALID_HANDLER");
        assert_eq!(bad_handler.validate().unwrap_err(), e);

        let zero_interval = Instruction::ScheduleTimer {
            actor: Address::ZERO,
            fire_at_height: 1,
            handler: "t".into(),
            data: vec![],
            interval: Some(0),
        };
        assert_eq!(
            Instruction::decode(&zero_interval.encode())
                .unwrap_err()
                .code(),
            "INVALID_INTERVAL"
        );

        let bad_name = Instruction::PublishLibrary {
            name: "Bad".into(),
            version: 0,
            source: vec![],
        };
        assert_eq!(
            Instruction::decode(&bad_name.encode()).unwrap_err().code(),
            "INVALID_LIBRARY_NAME"
        );

        for (src, code) in [
            (&b"\xff"[..], "SOURCE_NOT_UTF8"),
            (b"\xEF\xBB\xBFx", "SOURCE_HAS_BOM"),
            (b"x\r\n", "SOURCE_HAS_CR"),
            ("e\u{301}".as_bytes(), "SOURCE_NOT_NFC"),
        ] {
            let d = Instruction::Deploy {
                source: src.to_vec(),
                salt: [0; 32],
                init_args: vec![],
                value: 0,
            };
            let e = Instruction::decode(&d.encode()).unwrap_err();
            assert_eq!(e.code(), code);
            assert!(e.to_string().starts_with("instruction.source:"), "{e}");
            let p = Instruction::PublishLibrary {
                name: "lib".into(),
                version: 1,
                source: src.to_vec(),
            };
            assert_eq!(Instruction::decode(&p.encode()).unwrap_err().code(), code);
        }

        let bad_utf8_handler =
            h("0102 0000000000000000000000000000000000000000 01 ff 00 0000000000000000");
        assert_eq!(
            Instruction::decode(&bad_utf8_handler).unwrap_err().code(),
            "INVALID_UTF8"
        );
    }
}
