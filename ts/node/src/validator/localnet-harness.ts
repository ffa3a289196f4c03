/**
 * Test support for multi-process localnet tests: validator processes (`cowboyd --config`, as
 * `cowboy localnet` starts them) on loopback, driven over their JSON-RPC.
 *
 * Invariants the helpers keep so that tests assert protocol guarantees, never timing:
 * - {@link waitFor} polls a condition until it holds or a generous deadline passes; a condition
 *   that throws (a node restarting, a socket refused) counts as "not yet", and the last error is
 *   part of the timeout message;
 * - every process started is recorded in {@link Localnet.procs} and killed by
 *   {@link Localnet.stop}; its log lines are kept in {@link Localnet.logs} (all starts) and, with
 *   `COWBOY_TEST_LOGS=DIR`, appended to `DIR/<name>-v<i>.log`;
 * - the libp2p (QUIC/UDP) ports are a range that was free when the localnet was planned, below
 *   Linux's ephemeral port range, so concurrently running test files do not collide.
 *
 * Only tests import this module.
 */
import { createSocket } from "node:dgram";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileJournal, type Round } from "@cowboy/consensus";
import {
  addressFromSecretKey,
  encodeTransaction,
  type Instruction,
  signTransaction,
  toHex,
  zeroSignature,
} from "@cowboy/sdk";
import {
  DEFAULT_LOCALNET,
  type LocalnetOptions,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../localnet.ts";

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A JSON-RPC quantity (`0x…`) as a number. */
export const quantity = (q: string): number => Number(BigInt(q));

/** A number as a JSON-RPC quantity (`0x…`). */
export const toQuantity = (n: number | bigint): string => `0x${n.toString(16)}`;

/** Calls `method` on the JSON-RPC server at `url`; a JSON-RPC error is thrown as an Error. */
export async function jsonRpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/**
 * Polls `cond` every `pollMs` until it returns true; throws `timed out waiting for <what>` once
 * `timeoutMs` passed. A throwing condition counts as false (its last error is reported).
 */
export async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 90_000,
  pollMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      if (await cond()) return;
      lastError = null;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError === null ? "" : ` (last error: ${(lastError as Error).message ?? lastError})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(pollMs);
  }
}

/**
 * The first of `count` consecutive UDP ports on 127.0.0.1 that are all free now, chosen at
 * random in 20000..32000 (below the ephemeral range 32768.., which outgoing sockets use).
 */
export async function freeUdpPortRange(count: number): Promise<number> {
  const bindable = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = createSocket("udp4");
      s.once("error", () => {
        try {
          s.close();
        } catch {
          // never bound: nothing to close
        }
        resolve(false);
      });
      s.bind(port, "127.0.0.1", () => s.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    let free = true;
    for (let i = 0; i < count && free; i++) free = await bindable(base + i);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free UDP ports found`);
}

/** One line of a validator's `finalized.log`: a finalized block and (if kept) its certificate. */
export interface FinalizedLogEntry {
  /** height */
  readonly h: number;
  /** view */
  readonly v: number;
  /** the encoded consensus block (hex) */
  readonly b: string;
  /** the certificate that finalized it; `signers` is a bitmap (hex) by index in the epoch's set (see `bitmapHas`) */
  readonly c: { readonly kind: string; readonly round: Round; readonly signers: string } | null;
}

/**
 * The entries of `<dataDir>/finalized.log`. A torn last line (the node is appending it right
 * now) is left out; a torn line anywhere else is an error.
 */
export function readFinalizedLog(dataDir: string): FinalizedLogEntry[] {
  const lines = readFileSync(join(dataDir, "finalized.log"), "utf8").split("\n");
  const out: FinalizedLogEntry[] = [];
  lines.forEach((line, k) => {
    if (line.trim() === "") return;
    try {
      out.push(JSON.parse(line) as FinalizedLogEntry);
    } catch (err) {
      if (k !== lines.length - 1) throw err;
    }
  });
  return out;
}

/**
 * The latest round (by epoch, then view) in which the validator whose data directory is
 * `dataDir` signed any vote, from its signing journal (fsynced before each vote is sent); null
 * when it signed none. Only read the journal of a process that is not running.
 */
export function lastSignedRound(dataDir: string): Round | null {
  const journal = new FileJournal(join(dataDir, "votes.journal"));
  try {
    let last: Round | null = null;
    for (const v of journal.load())
      if (last === null || compareRounds(v.round, last) > 0)
        last = { epoch: v.round.epoch, view: v.round.view };
    return last;
  } finally {
    journal.close();
  }
}

/** Orders rounds by epoch, then view. */
export const compareRounds = (a: Round, b: Round): number => a.epoch - b.epoch || a.view - b.view;

/** Limits of a transaction built by {@link sendTransaction}. */
export interface TransactionLimits {
  readonly cyclesLimit: bigint;
  readonly cellsLimit: bigint;
}

/**
 * `instruction` signed with `secretKey` at `nonce` on `chainId`, with the localnet tests' fee
 * caps (20,000 a unit, no tip), encoded as hex for `cowboy_sendRawTransaction`.
 */
export function signedTransactionHex(
  chainId: bigint,
  nonce: bigint,
  secretKey: Uint8Array,
  instruction: Instruction,
  limits: TransactionLimits,
): string {
  const tx = signTransaction(
    {
      chainId,
      nonce,
      instruction,
      cyclesLimit: limits.cyclesLimit,
      cellsLimit: limits.cellsLimit,
      maxFeePerCycle: 20_000n,
      maxFeePerCell: 20_000n,
      maxPriorityFeePerCycle: 0n,
      maxPriorityFeePerCell: 0n,
      from: addressFromSecretKey(secretKey),
      accessList: null,
      metadata: new Uint8Array(0),
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature: zeroSignature(),
      additionalSigners: [],
    },
    secretKey,
  );
  return toHex(encodeTransaction(tx));
}

/**
 * Signs `instruction` with `secretKey` (chain id and the sender's pending nonce read from `url`)
 * and sends it to `url`; returns its hash.
 */
export async function sendTransaction(
  url: string,
  secretKey: Uint8Array,
  instruction: Instruction,
  limits: TransactionLimits,
): Promise<string> {
  const from = addressFromSecretKey(secretKey);
  const chainId = BigInt((await jsonRpc(url, "cowboy_chainId")) as string);
  const nonce = BigInt(
    (await jsonRpc(url, "cowboy_getTransactionCount", [toHex(from), "pending"])) as string,
  );
  const raw = signedTransactionHex(chainId, nonce, secretKey, instruction, limits);
  return (await jsonRpc(url, "cowboy_sendRawTransaction", [raw])) as string;
}

/** A transaction receipt as the JSON-RPC serves it (the fields tests read). */
export interface Receipt {
  readonly status: string;
  readonly blockNumber: string;
  readonly blockHash: string;
}

/** Waits until the node at `url` serves the receipt of `hash` (its block is final there). */
export async function waitForReceipt(
  url: string,
  hash: string,
  what: string,
  timeoutMs = 90_000,
): Promise<Receipt> {
  let receipt: Receipt | null = null;
  await waitFor(
    what,
    async () => {
      receipt = (await jsonRpc(url, "cowboy_getTransactionReceipt", [hash])) as Receipt | null;
      return receipt !== null;
    },
    timeoutMs,
  );
  return receipt as unknown as Receipt;
}

/** A block as `cowboy_getBlockByNumber(h, false)` serves it (the fields tests read). */
export interface BlockSummary {
  readonly hash: string;
  readonly stateRoot: string;
  readonly transactions: string[];
}

/** The consensus status of a validator (`cowboy_consensusStatus`), numbers decoded. */
export interface ConsensusStatus {
  /** network-file index (-1: not in the network file) */
  readonly index: number;
  readonly epoch: number;
  readonly view: number;
  readonly voting: boolean;
  /** evidence this node knows */
  readonly evidence: number;
}

/** What {@link Localnet.start} plans and starts. */
export interface LocalnetSpec {
  /** names the temporary directory and the debug log files */
  readonly name: string;
  /** validators in the network file (all started) */
  readonly validators: number;
  /** UDP ports to reserve: validator i listens on basePort + i (default: `validators`) */
  readonly ports?: number;
  /** planLocalnet options over the defaults (any RPC port, info logs) */
  readonly options?: Partial<Omit<LocalnetOptions, "validators" | "dir" | "basePort">>;
  /** edits the planned config files (e.g. fault switches) before the processes start */
  readonly configure?: (paths: string[]) => void;
}

/** A localnet of validator processes in a temporary directory. */
export class Localnet {
  readonly name: string;
  /** the localnet directory (network.json, v<i>/) */
  readonly dir: string;
  /** validator i's libp2p port is basePort + i */
  readonly basePort: number;
  /** config file of each slot (a test may add slots beyond the network file's validators) */
  readonly paths: string[];
  /** JSON-RPC URL of each slot's latest start */
  readonly urls: string[] = [];
  /** the running process of each slot (null: not running) */
  readonly procs: Array<ValidatorProcess | null> = [];
  /** every log line of each slot, over all its starts */
  readonly logs: string[][] = [];
  private readonly genesisValidators: number;

  private constructor(name: string, dir: string, basePort: number, paths: string[]) {
    this.name = name;
    this.dir = dir;
    this.basePort = basePort;
    this.paths = paths;
    this.genesisValidators = paths.length;
  }

  /** Plans a localnet in a new temporary directory and starts every validator; resolves once all serve. */
  static async start(spec: LocalnetSpec): Promise<Localnet> {
    const dir = mkdtempSync(join(tmpdir(), `cowboy-${spec.name}-`));
    const basePort = await freeUdpPortRange(spec.ports ?? spec.validators);
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      rpcPort: 0,
      logLevel: "info",
      ...spec.options,
      validators: spec.validators,
      dir,
      basePort,
    });
    spec.configure?.(paths);
    const net = new Localnet(spec.name, dir, basePort, paths);
    try {
      await Promise.all(paths.map((_, i) => net.spawn(i)));
    } catch (err) {
      await net.stop();
      throw err;
    }
    return net;
  }

  /** Indices 0..n-1 of the network file's n validators (slots a test adds come after them). */
  get validators(): number[] {
    return Array.from({ length: this.genesisValidators }, (_, i) => i);
  }

  /** Data directory of slot `i`. */
  dataDir(i: number): string {
    return join(this.dir, `v${i}`);
  }

  /**
   * Starts slot `i` from `this.paths[i]` (`configPath` sets it first); resolves with the sync
   * height it reported once it serves JSON-RPC. If it exits first, the error carries its last
   * log lines.
   */
  async spawn(i: number, configPath?: string): Promise<{ syncedTo: number }> {
    if (configPath !== undefined) this.paths[i] = configPath;
    const path = this.paths[i];
    if (path === undefined) throw new Error(`no config file for validator ${i}`);
    const lines = this.logs[i] ?? [];
    this.logs[i] = lines;
    const debugDir = process.env.COWBOY_TEST_LOGS;
    const p = spawnValidator(i, path, (line) => {
      lines.push(line);
      if (debugDir) appendFileSync(join(debugDir, `${this.name}-v${i}.log`), `${line}\n`);
    });
    this.procs[i] = p;
    try {
      const ready = await p.ready;
      this.urls[i] = ready.rpc;
      return { syncedTo: ready.syncedTo };
    } catch (err) {
      throw new Error(`${(err as Error).message}; last log lines:\n${lines.slice(-12).join("\n")}`);
    }
  }

  /** Stops slot `i` with `signal` (default SIGKILL) and waits for the exit; no-op if not running. */
  async kill(i: number, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const p = this.procs[i];
    this.procs[i] = null;
    if (p === null || p === undefined) return;
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
    await p.exited;
  }

  /** Kills every running process and removes the directory. */
  async stop(): Promise<void> {
    await Promise.all(this.procs.map((_, i) => this.kill(i)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** JSON-RPC URL of slot `i`'s latest start. */
  url(i: number): string {
    const u = this.urls[i];
    if (u === undefined) throw new Error(`validator ${i} never served JSON-RPC`);
    return u;
  }

  /** Calls `method` on slot `i`'s JSON-RPC. */
  rpc(i: number, method: string, params: unknown[] = []): Promise<unknown> {
    return jsonRpc(this.url(i), method, params);
  }

  /** Slot `i`'s finalized height. */
  async height(i: number): Promise<number> {
    return quantity((await this.rpc(i, "cowboy_blockNumber")) as string);
  }

  /** The finalized heights of `ids`, in order. */
  heights(ids: readonly number[]): Promise<number[]> {
    return Promise.all(ids.map((i) => this.height(i)));
  }

  /** The lowest finalized height among `ids`: a height every one of them has. */
  async commonHeight(ids: readonly number[]): Promise<number> {
    return Math.min(...(await this.heights(ids)));
  }

  /** Waits until every one of `ids` has finalized height `min`. */
  waitForHeight(ids: readonly number[], min: number, what: string, timeoutMs = 90_000): Promise<void> {
    return waitFor(
      `${what} (height ${min} on validators ${ids.join(", ")})`,
      async () => (await this.heights(ids)).every((h) => h >= min),
      timeoutMs,
    );
  }

  /** Slot `i`'s finalized block at height `h` (null if it has none). */
  async block(i: number, h: number): Promise<BlockSummary | null> {
    return (await this.rpc(i, "cowboy_getBlockByNumber", [toQuantity(h), false])) as BlockSummary | null;
  }

  /** Slot `i`'s block hash at height `h`; throws if it has no block there. */
  async hashAt(i: number, h: number): Promise<string> {
    const b = await this.block(i, h);
    if (b === null) throw new Error(`validator ${i} has no block at height ${h}`);
    return b.hash;
  }

  /**
   * The distinct `hash/stateRoot` pairs `ids` serve at height `h` (one chain: exactly one);
   * throws if one of them has no block there.
   */
  async versionsAt(ids: readonly number[], h: number): Promise<string[]> {
    const blocks = await Promise.all(ids.map((i) => this.block(i, h)));
    return [
      ...new Set(
        blocks.map((b, k) => {
          if (b === null) throw new Error(`validator ${ids[k]} has no block at height ${h}`);
          return `${b.hash}/${b.stateRoot}`;
        }),
      ),
    ];
  }

  /** Slot `i`'s consensus status. */
  async status(i: number): Promise<ConsensusStatus> {
    const s = (await this.rpc(i, "cowboy_consensusStatus")) as {
      index: number;
      epoch: string;
      view: string;
      voting: boolean;
      evidence: string;
    };
    return {
      index: s.index,
      epoch: quantity(s.epoch),
      view: quantity(s.view),
      voting: s.voting,
      evidence: quantity(s.evidence),
    };
  }

  /** Lower-cased addresses of the validator set of `epoch` as slot `via` (default 0) serves it. */
  async validatorsOf(epoch: number, via = 0): Promise<string[]> {
    const r = (await this.rpc(via, "cowboy_getValidators", [toQuantity(epoch)])) as {
      validators: Array<{ address: string }>;
    };
    return r.validators.map((v) => v.address.toLowerCase());
  }

  /** The entries of slot `i`'s finalized.log. */
  finalizedLog(i: number): FinalizedLogEntry[] {
    return readFinalizedLog(this.dataDir(i));
  }
}
