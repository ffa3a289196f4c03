/**
 * The canonical transaction types (spec §2.1, docs/codec.md §2–§3). Integers
 * that are `u64` in Rust are `bigint` here (0..=2^64-1); fixed-width values
 * (addresses 20 B, hashes 32 B, signatures 65 B) and byte strings are
 * `Uint8Array`. Field order of {@link Transaction} is the frozen encoding order.
 */

/** 20-byte account or actor address. */
export type Address = Uint8Array;
/** 32-byte hash (keccak256 digest, salt, timer id). */
export type Hash32 = Uint8Array;
/** 65-byte secp256k1 signature r(32) ‖ s(32) ‖ v(1), v ∈ {0, 1}. */
export type Signature65 = Uint8Array;

/** System(0) Transfer(1): move `amount` to `to`. */
export interface TransferInstruction {
  kind: "transfer";
  to: Address;
  amount: bigint;
}

/**
 * System(0) RegisterValidator(2): the sender (operator account) registers as a validator with
 * `stake` of its own balance (self-stake only), BLS key `blsKey` (48 bytes, compressed G1)
 * proven by `proofOfPossession` (96 bytes, compressed G2). Active from the next epoch.
 */
export interface RegisterValidatorInstruction {
  kind: "registerValidator";
  blsKey: Uint8Array;
  proofOfPossession: Uint8Array;
  stake: bigint;
}

/** System(0) ExitValidator(3): the sender's validator starts unbonding. */
export interface ExitValidatorInstruction {
  kind: "exitValidator";
}

/** System(0) WithdrawStake(4): the sender's unbonded validator takes its stake back. */
export interface WithdrawStakeInstruction {
  kind: "withdrawStake";
}

/** System(0) UnjailValidator(5): the sender's validator, its jail over, rejoins at the next epoch. */
export interface UnjailValidatorInstruction {
  kind: "unjailValidator";
}

/** System(0) SubmitEvidence(6): equivocation evidence (`encodeEvidence` bytes, opaque to the codec); anyone may send it. */
export interface SubmitEvidenceInstruction {
  kind: "submitEvidence";
  evidence: Uint8Array;
}

/**
 * System(0) SysCancelTimer(7) (spec §5.1a `SYS_CANCEL_TIMER`): the validator set of `epoch`
 * cancels timer `timerId` of `actor`. `signers` is the signer bitmap over that epoch's set
 * (validator i = bit i % 8 of byte i / 8); `signature` the 96-byte BLS aggregate.
 */
export interface SysCancelTimerInstruction {
  kind: "sysCancelTimer";
  actor: Address;
  timerId: Hash32;
  epoch: bigint;
  signers: Uint8Array;
  signature: Uint8Array;
}

/**
 * System(0) DkgLog(8): a dealer's signed log of the chain's open resharing ceremony number
 * `ceremony` (contract C4; opaque to the codec, checked by the state transition). Anyone may
 * send it: the log carries the dealer's signature.
 */
export interface DkgLogInstruction {
  kind: "dkgLog";
  ceremony: bigint;
  log: Uint8Array;
}

/** Actor(1) Deploy(1): deploy canonical Python `source` at the CREATE2-style address of (from, salt, code_hash). */
export interface DeployInstruction {
  kind: "deploy";
  /** Canonical Python source bytes (UTF-8, NFC, LF only, no BOM). */
  source: Uint8Array;
  salt: Hash32;
  /** Canonical CBOR of the constructor arguments (opaque to the codec; may be empty). */
  initArgs: Uint8Array;
  value: bigint;
}

/** Actor(1) Call(2): call `handler` of actor `to` with `args`, sending `value`. */
export interface CallInstruction {
  kind: "call";
  to: Address;
  /** 1..=64 byte ASCII identifier `[A-Za-z_][A-Za-z0-9_]*`. */
  handler: string;
  /** Canonical CBOR of the arguments (opaque to the codec). */
  args: Uint8Array;
  value: bigint;
}

/** Actor(1) ScheduleTimer(3): fire `handler` of `actor` at `fireAtHeight`, every `interval` blocks if set. */
export interface ScheduleTimerInstruction {
  kind: "scheduleTimer";
  actor: Address;
  fireAtHeight: bigint;
  handler: string;
  data: Uint8Array;
  /** `null` = one-shot; otherwise ≥ 1. */
  interval: bigint | null;
}

/** Actor(1) CancelTimer(4). */
export interface CancelTimerInstruction {
  kind: "cancelTimer";
  actor: Address;
  timerId: Hash32;
}

/** Custom(2), any sub_type 0..=255, opaque payload. */
export interface CustomInstruction {
  kind: "custom";
  subType: number;
  payload: Uint8Array;
}

/** Library(3) Publish(1): publish a Python library `name` at `version`. */
export interface PublishLibraryInstruction {
  kind: "publishLibrary";
  /** 1..=64 bytes of `[a-z_][a-z0-9_]*`. */
  name: string;
  version: bigint;
  /** Canonical Python source bytes. */
  source: Uint8Array;
}

/** The typed operation of a transaction: `[category, sub_type, body]` on the wire. */
export type Instruction =
  | TransferInstruction
  | RegisterValidatorInstruction
  | ExitValidatorInstruction
  | WithdrawStakeInstruction
  | UnjailValidatorInstruction
  | SubmitEvidenceInstruction
  | SysCancelTimerInstruction
  | DkgLogInstruction
  | DeployInstruction
  | CallInstruction
  | ScheduleTimerInstruction
  | CancelTimerInstruction
  | CustomInstruction
  | PublishLibraryInstruction;

/** Every `kind` of {@link Instruction}. */
export type InstructionKind = Instruction["kind"];

/** Reserved access-list entry (v1: advisory, never enforced). */
export interface AccessListEntry {
  address: Address;
  storageKeys: Uint8Array[];
}

/** One co-signer: its address and its signature over the signing hash. */
export interface AdditionalSigner {
  address: Address;
  signature: Signature65;
}

/** A Cowboy transaction, fields in the frozen encoding order of spec §2.5. */
export interface Transaction {
  chainId: bigint;
  nonce: bigint;
  instruction: Instruction;
  cyclesLimit: bigint;
  cellsLimit: bigint;
  maxFeePerCycle: bigint;
  maxFeePerCell: bigint;
  maxPriorityFeePerCycle: bigint;
  maxPriorityFeePerCell: bigint;
  from: Address;
  /** Reserved; `null` in v1. */
  accessList: AccessListEntry[] | null;
  metadata: Uint8Array;
  /** Present only on system-injected deferred transactions. */
  originTxHash: Hash32 | null;
  originRemainingCycles: bigint | null;
  originRemainingCells: bigint | null;
  signature: Signature65;
  /** Strictly ascending by address. */
  additionalSigners: AdditionalSigner[];
}
