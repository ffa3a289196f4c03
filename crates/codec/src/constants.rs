//! Protocol constants used by the codec, each with the spec section it comes from
//! (spec = `shared/spec/01-whitepaper-technical-spec.txt`).

/// Maximum encoded size of one transaction in bytes: `max_tx_size = 128 KiB` (spec §12.1).
/// Decoders check it before decoding.
pub const MAX_TX_SIZE: usize = 128 * 1024;

/// Size of an account / actor address in bytes (spec §1: "Each object has a 20-byte address").
pub const ADDRESS_SIZE: usize = 20;

/// Size of a keccak256 digest, hash, salt, timer id or Merkle root (spec §1.2, §2.5).
pub const HASH_SIZE: usize = 32;

/// Size of a secp256k1 signature `r ‖ s ‖ v` (spec §2.4, §2.5: "the 65-byte signature = r‖s‖v").
pub const SIGNATURE_SIZE: usize = 65;

/// Size of a secp256k1 secret key (spec §1.1).
pub const SECRET_KEY_SIZE: usize = 32;

/// Largest handler name in bytes (docs/codec.md §3; handlers are Python identifiers).
pub const MAX_HANDLER_LEN: usize = 64;

/// Largest library name in bytes (docs/codec.md §3).
pub const MAX_LIBRARY_NAME_LEN: usize = 64;

/// Highest reserved system address: `0x0000…0100` (spec §1.3). Addresses `<=` this are
/// reserved for system actors and precompiles.
pub const SYSTEM_ADDRESS_MAX: [u8; ADDRESS_SIZE] = {
    let mut a = [0u8; ADDRESS_SIZE];
    a[ADDRESS_SIZE - 2] = 0x01;
    a
};

/// Instruction category `System` (spec §2.1, §2.4: `System(0)`).
pub const CATEGORY_SYSTEM: u8 = 0;
/// Instruction category `Actor` (spec §2.1; numbering docs/codec.md §3).
pub const CATEGORY_ACTOR: u8 = 1;
/// Instruction category `Custom` (spec §2.1; numbering docs/codec.md §3).
pub const CATEGORY_CUSTOM: u8 = 2;
/// Instruction category `Library` (spec §2.1; numbering docs/codec.md §3).
pub const CATEGORY_LIBRARY: u8 = 3;

/// `System / Transfer` sub_type (spec §2.4: `Transfer(1)`).
pub const SYSTEM_TRANSFER: u8 = 1;
/// `System / RegisterValidator` sub_type (docs/codec.md §3; spec "Validator Set").
pub const SYSTEM_REGISTER_VALIDATOR: u8 = 2;
/// `System / ExitValidator` sub_type (docs/codec.md §3).
pub const SYSTEM_EXIT_VALIDATOR: u8 = 3;
/// `System / WithdrawStake` sub_type (docs/codec.md §3).
pub const SYSTEM_WITHDRAW_STAKE: u8 = 4;
/// `System / UnjailValidator` sub_type (docs/codec.md §3).
pub const SYSTEM_UNJAIL_VALIDATOR: u8 = 5;
/// `System / SubmitEvidence` sub_type (docs/codec.md §3; spec "Slashing").
pub const SYSTEM_SUBMIT_EVIDENCE: u8 = 6;
/// `System / SysCancelTimer` sub_type (docs/codec.md §3; spec §5.1a `SYS_CANCEL_TIMER`).
pub const SYSTEM_SYS_CANCEL_TIMER: u8 = 7;
/// `System / DkgLog` sub_type (docs/codec.md §3; a resharing ceremony's dealer log, contract C4).
pub const SYSTEM_DKG_LOG: u8 = 8;
/// Size of a BLS12-381 (MinPk) public key: a compressed G1 point.
pub const BLS_PUBLIC_KEY_SIZE: usize = 48;
/// Size of a BLS12-381 (MinPk) signature, aggregate or proof of possession: a compressed G2 point.
pub const BLS_SIGNATURE_SIZE: usize = 96;
/// `Actor / Deploy` sub_type (docs/codec.md §3).
pub const ACTOR_DEPLOY: u8 = 1;
/// `Actor / Call` sub_type (docs/codec.md §3).
pub const ACTOR_CALL: u8 = 2;
/// `Actor / ScheduleTimer` sub_type (docs/codec.md §3).
pub const ACTOR_SCHEDULE_TIMER: u8 = 3;
/// `Actor / CancelTimer` sub_type (docs/codec.md §3).
pub const ACTOR_CANCEL_TIMER: u8 = 4;
/// `Library / Publish` sub_type (docs/codec.md §3).
pub const LIBRARY_PUBLISH: u8 = 1;
