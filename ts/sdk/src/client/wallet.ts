/**
 * `WalletClient`: builds, signs and sends transactions for one account. It fills
 * what the caller leaves out from the node — chain id, the next nonce (tracked
 * locally too, so several sends in a row do not collide), meter limits and fees
 * (from `cowboy_estimateFee`, spec §17.10) — signs with the account's secret key
 * (RFC 6979, low-S) and submits the canonical bytes. Helpers cover every
 * instruction, and deploying and calling actors with canonical CBOR arguments.
 */
import { type TxLimits, unsignedTransaction } from "../build.ts";
import { concatBytes, utf8 } from "../bytes.ts";
import type { CborInput, CborValue } from "../cbor.ts";
import { decodeCbor } from "../cbor.ts";
import { actorAddress, addressFromSecretKey, keccak256, signTransaction } from "../crypto.ts";
import { canonicalizeSource } from "../source.ts";
import { encodeTransaction } from "../tx.ts";
import type { Address, Hash32, Instruction, Transaction } from "../types.ts";
import { RpcRequestError } from "./errors.ts";
import type { RpcReceipt } from "./formats.ts";
import { ActorCallError, type ClientOptions, PublicClient, type WaitOptions } from "./public.ts";
import { encodeArgs } from "./values.ts";

/** Nonce, meter limits and fee caps of a transaction; anything left out is filled from the node. */
export interface TxOverrides extends Partial<TxLimits> {
  nonce?: bigint;
  metadata?: Uint8Array;
}

/** A transaction that was submitted. */
export interface SentTransaction {
  hash: Hash32;
  transaction: Transaction;
  /** the canonical signed bytes that were sent */
  raw: Uint8Array;
}

/** Options of {@link createWalletClient}. */
export interface WalletOptions extends ClientOptions {
  /** the account's 32-byte secp256k1 secret key */
  secretKey: Uint8Array;
  /** multiply estimated meter usage by this many percent for the limits (default 150) */
  limitHeadroomPercent?: number;
  /** limits used when the node cannot estimate (default 1,000,000 cycles / 100,000 cells) */
  fallbackLimits?: { cycles: bigint; cells: bigint };
}

/** What `deployActor` returns. */
export interface DeployResult extends SentTransaction {
  address: Address;
  receipt: RpcReceipt;
}

/** What `callActor` returns. */
export interface CallActorResult extends SentTransaction {
  receipt: RpcReceipt;
  /** the handler's decoded return value */
  result: CborValue;
}

/** The default deploy salt for a sender's nonce: keccak256("cowboy-deploy" ‖ nonce u64 BE). */
export function defaultDeploySalt(nonce: bigint): Uint8Array {
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, nonce);
  return keccak256(concatBytes(utf8("cowboy-deploy"), n));
}

/** Signs and sends transactions as one account; also every read of {@link PublicClient}. */
export class WalletClient extends PublicClient {
  readonly address: Address;
  private readonly secretKey: Uint8Array;
  private readonly headroom: bigint;
  private readonly fallback: { cycles: bigint; cells: bigint };
  private nextNonce: bigint | null = null;

  constructor(options: WalletOptions) {
    super(options);
    this.secretKey = Uint8Array.from(options.secretKey);
    this.address = addressFromSecretKey(this.secretKey);
    this.headroom = BigInt(options.limitHeadroomPercent ?? 150);
    this.fallback = options.fallbackLimits ?? { cycles: 1_000_000n, cells: 100_000n };
  }

  /** The next nonce to use: the larger of the node's pending count and the local counter. */
  async getNextNonce(): Promise<bigint> {
    const node = await this.getTransactionCount(this.address, "pending");
    return this.nextNonce !== null && this.nextNonce > node ? this.nextNonce : node;
  }

  /** Builds the unsigned transaction for `instruction`, filling chain id, nonce, limits and fees. */
  async prepareTransaction(instruction: Instruction, overrides: TxOverrides = {}): Promise<Transaction> {
    const [chainId, nonce] = await Promise.all([
      this.getChainId(),
      overrides.nonce !== undefined ? Promise.resolve(overrides.nonce) : this.getNextNonce(),
    ]);
    let cyclesLimit = overrides.cyclesLimit;
    let cellsLimit = overrides.cellsLimit;
    let maxFeePerCycle = overrides.maxFeePerCycle;
    let maxFeePerCell = overrides.maxFeePerCell;
    let tipCycle = overrides.maxPriorityFeePerCycle;
    let tipCell = overrides.maxPriorityFeePerCell;
    const needEstimate = [cyclesLimit, cellsLimit, maxFeePerCycle, maxFeePerCell, tipCycle, tipCell].some(
      (v) => v === undefined,
    );
    if (needEstimate) {
      let est = null;
      try {
        // the node estimates the instruction and sender of an unsigned transaction
        est = await this.estimateFee(
          unsignedTransaction({
            chainId,
            nonce,
            instruction,
            from: this.address,
            metadata: overrides.metadata,
          }),
        );
      } catch (err) {
        // A node that cannot estimate this instruction still gets it (with fallback
        // limits); other failures (unreachable node, bad parameters) are the caller's.
        if (!(err instanceof RpcRequestError) || err.code === -32602) throw err;
      }
      if (est !== null) {
        cyclesLimit ??= est.cyclesLimit > 0n ? est.cyclesLimit : (est.cyclesUsed * this.headroom) / 100n;
        cellsLimit ??= est.cellsLimit > 0n ? est.cellsLimit : (est.cellsUsed * this.headroom) / 100n;
        maxFeePerCycle ??= est.maxFeePerCycle;
        maxFeePerCell ??= est.maxFeePerCell;
        tipCycle ??= est.maxPriorityFeePerCycle;
        tipCell ??= est.maxPriorityFeePerCell;
      } else {
        const status = await this.getStatus();
        cyclesLimit ??= this.fallback.cycles;
        cellsLimit ??= this.fallback.cells;
        tipCycle ??= 0n;
        tipCell ??= 0n;
        // twice the basefee survives several full blocks of basefee increases
        maxFeePerCycle ??= status.nextCycleBasefee * 2n + tipCycle;
        maxFeePerCell ??= status.nextCellBasefee * 2n + tipCell;
      }
    }
    return unsignedTransaction({
      chainId,
      nonce,
      instruction,
      from: this.address,
      metadata: overrides.metadata,
      limits: {
        cyclesLimit,
        cellsLimit,
        maxFeePerCycle,
        maxFeePerCell,
        maxPriorityFeePerCycle: tipCycle,
        maxPriorityFeePerCell: tipCell,
      },
    });
  }

  /** Signs `tx` as this account. */
  sign(tx: Transaction): Transaction {
    return signTransaction(tx, this.secretKey);
  }

  /** Prepares, signs and submits `instruction`. */
  async sendInstruction(instruction: Instruction, overrides: TxOverrides = {}): Promise<SentTransaction> {
    const tx = this.sign(await this.prepareTransaction(instruction, overrides));
    const raw = encodeTransaction(tx);
    let hash: Hash32;
    try {
      hash = await this.sendRawTransaction(raw);
    } catch (err) {
      // Our idea of the nonce may be stale (another wallet used the key): re-read next time.
      if (err instanceof RpcRequestError && err.reason?.startsWith("ERR_MEMPOOL_NONCE") === true)
        this.nextNonce = null;
      throw err;
    }
    this.nextNonce = tx.nonce + 1n;
    return { hash, transaction: tx, raw };
  }

  /** Sends `amount` base units to `to`. */
  transfer(to: Address, amount: bigint, overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "transfer", to, amount }, overrides);
  }

  /** Calls `handler` of actor `to` with positional `args` (encoded as canonical CBOR). */
  sendCall(
    to: Address,
    handler: string,
    args: readonly CborInput[] = [],
    value = 0n,
    overrides?: TxOverrides,
  ) {
    return this.sendInstruction({ kind: "call", to, handler, args: encodeArgs(args), value }, overrides);
  }

  /** Schedules `handler` of `actor` at `fireAtHeight` (every `interval` blocks if given). */
  scheduleTimer(
    actor: Address,
    fireAtHeight: bigint,
    handler: string,
    data: Uint8Array = new Uint8Array(0),
    interval: bigint | null = null,
    overrides?: TxOverrides,
  ): Promise<SentTransaction> {
    return this.sendInstruction(
      { kind: "scheduleTimer", actor, fireAtHeight, handler, data, interval },
      overrides,
    );
  }

  /** Cancels timer `timerId` of `actor`. */
  cancelTimer(actor: Address, timerId: Hash32, overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "cancelTimer", actor, timerId }, overrides);
  }

  /** Publishes a Python library. */
  publishLibrary(name: string, version: bigint, source: string | Uint8Array, overrides?: TxOverrides) {
    const src = typeof source === "string" ? canonicalizeSource(source) : source;
    return this.sendInstruction({ kind: "publishLibrary", name, version, source: src }, overrides);
  }

  /**
   * Registers this account as a validator with `stake` base units of its own balance, BLS
   * public key `blsKey` (48 bytes) and its proof of possession for this chain (96 bytes);
   * in the set from the next epoch. A failure is in the receipt (`checkValidatorReceipt`).
   */
  registerValidator(
    registration: { blsKey: Uint8Array; proofOfPossession: Uint8Array; stake: bigint },
    overrides?: TxOverrides,
  ): Promise<SentTransaction> {
    const { blsKey, proofOfPossession, stake } = registration;
    return this.sendInstruction({ kind: "registerValidator", blsKey, proofOfPossession, stake }, overrides);
  }

  /** Starts unbonding this account's validator (out of the set from the next epoch). */
  exitValidator(overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "exitValidator" }, overrides);
  }

  /** Takes this account's stake back once its validator has unbonded. */
  withdrawStake(overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "withdrawStake" }, overrides);
  }

  /** Releases this account's validator after its jail (back in the set from the next epoch). */
  unjailValidator(overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "unjailValidator" }, overrides);
  }

  /** Submits equivocation evidence (`encodeEvidence` bytes of @cowboy/consensus); anyone may. */
  submitEvidence(evidence: Uint8Array, overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "submitEvidence", evidence }, overrides);
  }

  /**
   * Submits a dealer's signed log (`DkgCeremony.closeDealing()` bytes) for the chain's open
   * resharing ceremony `ceremony` (`chain.openCeremony()`, docs/execution.md "Validator set");
   * it must be sent by the dealer's own validator account (whose registered BLS key signed the
   * log). A refusal is in the receipt (`ERR_DKG_NO_CEREMONY`, `ERR_DKG_LOG_INVALID`,
   * `ERR_DKG_LOG_DUPLICATE`, `ERR_DKG_LOG_SENDER`).
   */
  submitDkgLog(
    ceremony: bigint | number,
    log: Uint8Array,
    overrides?: TxOverrides,
  ): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "dkgLog", ceremony: BigInt(ceremony), log }, overrides);
  }

  /** Sends a custom instruction. */
  custom(subType: number, payload: Uint8Array, overrides?: TxOverrides): Promise<SentTransaction> {
    return this.sendInstruction({ kind: "custom", subType, payload }, overrides);
  }

  /**
   * Deploys Python `source` (canonicalized: LF, NFC, no BOM) with `__init__` `args`,
   * waits for the receipt and returns the actor's address. The salt defaults to
   * {@link defaultDeploySalt} of the nonce, so the address is known in advance.
   * Throws {@link ActorCallError} when the deploy fails on chain.
   */
  async deployActor(
    source: string | Uint8Array,
    options: {
      args?: readonly CborInput[];
      salt?: Uint8Array;
      value?: bigint;
      wait?: WaitOptions;
    } & TxOverrides = {},
  ): Promise<DeployResult> {
    const src = typeof source === "string" ? canonicalizeSource(source) : source;
    const nonce = options.nonce ?? (await this.getNextNonce());
    const salt = options.salt ?? defaultDeploySalt(nonce);
    const sent = await this.sendInstruction(
      {
        kind: "deploy",
        source: src,
        salt,
        initArgs: encodeArgs(options.args ?? []),
        value: options.value ?? 0n,
      },
      { ...options, nonce },
    );
    const receipt = await this.waitForTransactionReceipt(sent.hash, options.wait);
    if (receipt.status !== "success") throw receiptError("__init__", receipt);
    return { ...sent, address: actorAddress(this.address, salt, src), receipt };
  }

  /**
   * Calls a handler in a transaction, waits for the receipt and decodes the
   * handler's return value. Throws {@link ActorCallError} when the handler fails.
   */
  async callActor(
    to: Address,
    handler: string,
    args: readonly CborInput[] = [],
    options: { value?: bigint; wait?: WaitOptions } & TxOverrides = {},
  ): Promise<CallActorResult> {
    const sent = await this.sendCall(to, handler, args, options.value ?? 0n, options);
    const receipt = await this.waitForTransactionReceipt(sent.hash, options.wait);
    if (receipt.status !== "success") throw receiptError(handler, receipt);
    return {
      ...sent,
      receipt,
      result: receipt.returnData.length === 0 ? null : decodeCbor(receipt.returnData),
    };
  }
}

function receiptError(handler: string, receipt: RpcReceipt): ActorCallError {
  return ActorCallError.fromReceipt(handler, receipt);
}

/** A {@link WalletClient} for one secret key. */
export function createWalletClient(options: WalletOptions): WalletClient {
  return new WalletClient(options);
}
