/**
 * The Cowboy side of the devnet benchmark: `cowboyd` as a child process (as users run
 * it) on a free port and a temporary data directory, and a {@link LoadTarget} signing
 * with `@cowboy/sdk` from the prefunded development accounts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  actorAddress,
  decodeCbor,
  encodeCbor,
  encodeTransaction,
  fromHex,
  type Instruction,
  signTransaction,
  toHex,
  utf8,
  zeroSignature,
} from "@cowboy/sdk";
import { type DevKey, deriveDevKeys } from "../../ts/node/src/devnet/accounts.ts";
import type { LoadTarget, Workload } from "./load.ts";
import { WsRpc } from "./ws-rpc.ts";

const COWBOYD = join(import.meta.dirname, "../../ts/node/src/cowboyd.ts");

/** The counter actor of spec 04 (CIP-6 `cowboy_sdk` form): one storage slot, `increment` adds one. */
export const COUNTER_ACTOR = `from cowboy_sdk import actor

@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]
`;

/** Where the transfers go (an address nobody else uses). */
const RECIPIENT = fromHex("0x00000000000000000000000000000000c0ffee01");

/**
 * Limits and fee caps, about what a wallet would set: a transfer costs a fixed 21,000 cycles
 * (spec §17); an `increment` call 21,965 cycles and 8 cells (its receipt), so 50,000 / 1,000
 * leave headroom like the peer's 100,000 gas for its 28,000–43,000. The block builder
 * reserves lane budget by limit, so limits far above use would shrink blocks. Fee caps: 10×
 * the devnet's starting basefees (10,000 per cycle and per cell).
 */
const LIMITS: Record<Workload | "deploy", { cycles: bigint; cells: bigint }> = {
  transfer: { cycles: 21_000n, cells: 1_000n },
  call: { cycles: 50_000n, cells: 1_000n },
  deploy: { cycles: 5_000_000n, cells: 200_000n },
};
const MAX_FEE = 100_000n;
const TIP = 1n;

export interface CowboydOptions {
  /** `--block-time`: `auto`, `0` or milliseconds */
  blockTime: string;
  /** prefunded development accounts (`--accounts`) */
  accounts: number;
  /** extra Node flags for the child (e.g. `--cpu-prof`) */
  nodeArgs?: string[];
}

export interface RunningCowboyd {
  child: ChildProcess;
  http: string;
  ws: string;
  dataDir: string;
  /** SIGTERM, wait for a clean exit, remove the data directory */
  stop(): Promise<void>;
}

/** Starts `cowboyd` on a fresh temporary chain and resolves once its banner names the RPC URL. */
export function startCowboyd(opts: CowboydOptions): Promise<RunningCowboyd> {
  const dataDir = mkdtempSync(join(tmpdir(), "cowboy-bench-devnet-"));
  const args = [
    ...(opts.nodeArgs ?? []),
    COWBOYD,
    "--data-dir",
    dataDir,
    "--rpc-port",
    "0",
    "--block-time",
    opts.blockTime,
    "--accounts",
    String(opts.accounts),
    "--log-level",
    "warn",
    "--log-format",
    "json",
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /JSON-RPC\s+(http:\/\/\S+)\s+\(WebSocket\s+(ws:\/\/\S+)\)/.exec(out);
      if (m?.[1] !== undefined && m[2] !== undefined) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve({ child, http: m[1], ws: m[2], dataDir, stop });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      // warnings and errors of the node; keep the tail for an early exit's message
      out = (out + chunk.toString()).slice(-20_000);
    });
    child.once("exit", (code, signal) => {
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`cowboyd exited early (${code ?? signal}):\n${out}`));
    });
  });
}

/** A {@link LoadTarget} over a running devnet: dev accounts `0..senders-1` send, account `senders` deploys. */
export class CowboyTarget implements LoadTarget {
  readonly name = "cowboy";
  readonly prefix = "cowboy";
  readonly wsUrl: string;
  readonly senders: number;
  /** the counter actor (after {@link setUp}) */
  counter: Uint8Array = new Uint8Array(20);
  private readonly keys: DevKey[];
  private readonly deployer: DevKey;
  private readonly nonces: bigint[] = [];
  private chainId = 0n;
  private rpc: WsRpc | null = null;

  private constructor(wsUrl: string, senders: number) {
    this.wsUrl = wsUrl;
    this.senders = senders;
    const keys = deriveDevKeys(senders + 1).accounts;
    this.keys = keys.slice(0, senders);
    this.deployer = keys[senders] as DevKey;
  }

  /** Connects, reads the chain id and nonces, and deploys the counter actor (waiting for its receipt). */
  static async setUp(wsUrl: string, senders: number): Promise<CowboyTarget> {
    const t = new CowboyTarget(wsUrl, senders);
    const rpc = await WsRpc.open(wsUrl);
    t.rpc = rpc;
    t.chainId = BigInt(await rpc.call<string>("cowboy_chainId"));
    for (const k of t.keys) {
      t.nonces.push(
        BigInt(await rpc.call<string>("cowboy_getTransactionCount", [toHex(k.address), "pending"])),
      );
    }
    const source = utf8(COUNTER_ACTOR);
    const salt = new Uint8Array(32).fill(7);
    t.counter = actorAddress(t.deployer.address, salt, source);
    const nonce = BigInt(
      await rpc.call<string>("cowboy_getTransactionCount", [toHex(t.deployer.address), "pending"]),
    );
    const raw = t.signed(
      t.deployer,
      nonce,
      { kind: "deploy", source, salt, initArgs: encodeCbor([]), value: 0n },
      LIMITS.deploy,
    );
    const hash = await rpc.call<string>("cowboy_sendRawTransaction", [raw]);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await rpc.call<{ status: string } | null>("cowboy_getTransactionReceipt", [hash]);
      if (r !== null) {
        if (r.status !== "success") throw new Error(`cowboy: counter deploy failed: ${JSON.stringify(r)}`);
        break;
      }
      if (Date.now() > deadline) throw new Error("cowboy: counter deploy not committed within 30 s");
      await new Promise((res) => setTimeout(res, 20));
    }
    return t;
  }

  sign(kind: Workload, sender: number, count: number): string[] {
    const key = this.keys[sender];
    if (key === undefined) throw new RangeError(`no sender ${sender}`);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const nonce = this.nonces[sender] as bigint;
      this.nonces[sender] = nonce + 1n;
      const instruction: Instruction =
        kind === "transfer"
          ? { kind: "transfer", to: RECIPIENT, amount: 1n }
          : { kind: "call", to: this.counter, handler: "increment", args: encodeCbor([]), value: 0n };
      out.push(this.signed(key, nonce, instruction, LIMITS[kind]));
    }
    return out;
  }

  async effect(kind: Workload): Promise<bigint> {
    const rpc = this.rpc as WsRpc;
    if (kind === "transfer") return BigInt(await rpc.call<string>("cowboy_getBalance", [toHex(RECIPIENT)]));
    const read = await rpc.call<{ value: string | null }>("cowboy_getStorageAt", [
      toHex(this.counter),
      toHex(encodeCbor("count")),
    ]);
    if (read.value === null) throw new Error("cowboy: the counter has no count");
    const v = decodeCbor(fromHex(read.value));
    if (typeof v !== "bigint" && typeof v !== "number") throw new Error(`cowboy: count is ${String(v)}`);
    return BigInt(v);
  }

  /** The receipt of the transaction `hash` (for inspection), or null. */
  receipt(hash: string): Promise<Record<string, unknown> | null> {
    return (this.rpc as WsRpc).call("cowboy_getTransactionReceipt", [hash]);
  }

  close(): void {
    this.rpc?.close();
  }

  private signed(
    key: DevKey,
    nonce: bigint,
    instruction: Instruction,
    limits: { cycles: bigint; cells: bigint },
  ): string {
    const tx = signTransaction(
      {
        chainId: this.chainId,
        nonce,
        instruction,
        cyclesLimit: limits.cycles,
        cellsLimit: limits.cells,
        maxFeePerCycle: MAX_FEE,
        maxFeePerCell: MAX_FEE,
        maxPriorityFeePerCycle: TIP,
        maxPriorityFeePerCell: TIP,
        from: key.address,
        accessList: null,
        metadata: new Uint8Array(0),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: zeroSignature(),
        additionalSigners: [],
      },
      key.secretKey,
    );
    return toHex(encodeTransaction(tx));
  }
}
