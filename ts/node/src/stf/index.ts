/**
 * The state transition function (issue 7). Entry point: {@link Chain}.
 *
 * ```ts
 * const chain = Chain.create({ state, genesis, executor });        // genesis committed on an empty state
 * const checked = chain.checkTx(bytes, { futureNonce: true });    // §2.2 admission (throws StfError)
 * const picks = mempool.select({ basefee: chain.nextBasefees(),
 *   accountNonce, laneBudget: chain.txLaneBudgets() });
 * const { block, receipts, skipped } = chain.buildBlock(
 *   LANES.flatMap((l) => picks[l].map((t) => ({ tx: t.tx, bytes: t.bytes }))), // or just the bytes
 *   { timestampMs, proposer, parentSeed });                        // executes, commits, moves the head
 * chain.applyBlock(blockFromPeer);                                 // re-executes and checks every root
 * chain.getAccount(addr); chain.getActorStorage(actor, key); chain.simulateCall({...});
 * ```
 *
 * - Nothing here reads the clock: timestamps come from the caller.
 * - `state` is a {@link StateBackend}: `QmdbState` (crates/qmdb) in the node, `MemoryState` in tests.
 * - `executor` runs Python actors (the addon's `executeActor` bound to the same store); without it
 *   transfers and timers-from-transactions work and actor calls fail with `ERR_EXEC_NO_RUNTIME`.
 * - Receipts are in receipts-root order: transactions in block order, then timer fires
 *   (`kind: "timer"`, `txHash` = the fire's invocation id).
 * - Tips go to `proposer`; the §8.2 block reward is split by stake over the block's epoch
 *   validator set (validators.ts; to `proposer` when there is none); basefees are burned.
 * - Validator set (validators.ts): genesis `validators`, the System instructions (register,
 *   exit, withdraw, unjail, evidence, SYS_CANCEL_TIMER), `chain.validatorSet(epoch?)`,
 *   `chain.validator(address)`, downtime from `BuildOptions.participants` /
 *   `applyBlock(block, { participants })`; the set of e+1 is frozen at F(e) = e·E + ⌊E/2⌋.
 * - Threshold group (dkg.ts, with genesis `dkgOutput`): `chain.epochGroup(epoch)`,
 *   `chain.openCeremony()`, `chain.ceremony(n)`; dealer logs arrive as `dkgLog` transactions
 *   and the chain decides the next epoch's group at the last block of each epoch.
 * - `buildBlock` candidates that are `checkTx` results of the same chain (`{ tx, bytes }`, the
 *   same objects) are not decoded or signature-checked again; other candidates are bytes.
 * - Head hash, basefees, governance parameters and the admission executor are computed once per
 *   head (keyed on the head header object); parameters are re-read from the state at every head.
 */
export * from "./chain.ts";
export {
  type CeremonyRecord,
  type CeremonyStatus,
  DKG_PREFIX,
  type DkgBlockReport,
  type EpochGroup,
  observerRandomness,
} from "./dkg.ts";
export * from "./errors.ts";
export { BlockExecutor, blockReward, concatTopics, intrinsicCost, messageId, timerId } from "./exec.ts";
export {
  DEFAULT_CALLBACK_CYCLES,
  DEFAULT_CALLBACK_EXTRA_CELLS,
  JOB_DISPATCHER,
  JOB_EXPIRY_WORK_PER_BLOCK,
  JobError,
  type JobErrorCode,
  type JobRecord,
  type JobStatus,
  jobKey,
  MAX_JOB_RESULT_BYTES,
  RESULT_VERIFIER,
  TREASURY,
} from "./jobs.ts";
export { MemoryState } from "./memory-state.ts";
export * from "./open.ts";
export * from "./state-keys.ts";
export type * from "./types.ts";
export {
  decodeValidatorParams,
  encodeValidatorParams,
  type GenesisValidator,
  isValidatorInstruction,
  readValidatorParams,
  SYS_CANCEL_TIMER_NAMESPACE,
  sysCancelTimerMessage,
  txLane,
  VALIDATOR_PARAMS_KEY,
  VALIDATOR_REGISTRY_PREFIX,
  type ValidatorBlockReport,
  validatorIntrinsic,
} from "./validators.ts";
