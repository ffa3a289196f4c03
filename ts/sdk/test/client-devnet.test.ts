/**
 * End to end: the SDK client against the real devnet (`cowboyd` as a child process,
 * the qmdb state store through the addon): chain reads, a transfer with nonce and
 * fees filled from the node's estimate, its receipt and fee, account and storage
 * reads verified against real state proofs, new-head and pending-transaction
 * subscriptions, the faucet, fee history and a rejected transaction's reason.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ActorCallError,
  addressFromSecretKey,
  bytesEqual,
  createPublicClient,
  createWalletClient,
  decodeCbor,
  deriveSecretKey,
  encodeArgs,
  encodeCbor,
  mnemonicToSeed,
  RpcRequestError,
  toHex,
} from "../src/index.ts";
import { type Devnet, startDevnet } from "./devnet-process.ts";

const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const seed = mnemonicToSeed(MNEMONIC);
const KEY0 = deriveSecretKey(seed, "m/44'/60'/0'/0/0");
const KEY1 = deriveSecretKey(seed, "m/44'/60'/0'/0/1");
let devnet: Devnet;
/** Whether the addon carries the actor runtime (`executeActor`); deploys need it. */
const hasRuntime = (() => {
  try {
    return (
      typeof (createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>).executeActor ===
      "function"
    );
  } catch {
    return false;
  }
})();

const COUNTER = `from cowboy_sdk import actor, emit, set_interval


@actor
class Counter:
    def __init__(self, start: int = 0):
        self.storage["count"] = start
        self.storage["beats"] = 0
        set_interval(2, "beat")

    def increment(self, by: int = 1) -> int:
        if by <= 0:
            raise ValueError("by must be positive")
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self) -> int:
        return self.storage["count"]

    def beat(self, data=None):
        self.storage["beats"] += 1
`;

beforeAll(async () => {
  devnet = await startDevnet(["--block-time", "100"]);
}, 90_000);
afterAll(async () => {
  await devnet?.stop();
});

describe("SDK client on the devnet", () => {
  it("reads the chain", async () => {
    const c = createPublicClient({ transport: devnet.http });
    expect(await c.getChainId()).toBe(7777n);
    const s = await c.getStatus();
    expect(s.chainId).toBe(7777n);
    const head = await c.getBlock();
    expect(head).not.toBeNull();
    const genesis = await c.getBlock({ number: 0n });
    expect(genesis?.number).toBe(0n);
    expect(await c.getBalance(addressFromSecretKey(KEY0))).toBeGreaterThan(0n);
    const devs = await c.getDevAccounts();
    expect(devs.some((d) => bytesEqual(d.address, addressFromSecretKey(KEY0)))).toBe(true);
  });

  it("sends a transfer with node-filled nonce and fees and waits for its receipt", async () => {
    const w = createWalletClient({ transport: devnet.http, secretKey: KEY0 });
    const to = addressFromSecretKey(KEY1);
    const before = await w.getBalance(to);
    const sent = await w.transfer(to, 123_456n);
    const receipt = await w.waitForTransactionReceipt(sent.hash, { timeoutMs: 30_000, pollIntervalMs: 50 });
    expect(receipt.status).toBe("success");
    expect(bytesEqual(receipt.transactionHash, sent.hash)).toBe(true);
    expect(receipt.feePaid).toBeGreaterThan(0n);
    expect(receipt.feePaid).toBeLessThanOrEqual(
      sent.transaction.cyclesLimit * sent.transaction.maxFeePerCycle +
        sent.transaction.cellsLimit * sent.transaction.maxFeePerCell,
    );
    const after = await w.getBalance(to, receipt.blockNumber);
    expect(after - before).toBe(123_456n);
    // two more in a row: consecutive nonces, both included
    const a = await w.transfer(to, 1n);
    const b = await w.transfer(to, 1n);
    expect(b.transaction.nonce).toBe(a.transaction.nonce + 1n);
    const rb = await w.waitForTransactionReceipt(b.hash, { timeoutMs: 30_000, pollIntervalMs: 50 });
    expect(rb.status).toBe("success");
    const tx = await w.getTransaction(a.hash);
    expect(tx?.transaction.nonce).toBe(a.transaction.nonce);
  }, 60_000);

  it("verifies real state proofs of accounts and storage", async () => {
    const c = createPublicClient({ transport: devnet.http });
    const me = addressFromSecretKey(KEY0);
    const account = await c.getProvenAccount(me);
    expect(account).not.toBeNull();
    expect(account?.balance).toBe(await c.getBalance(me, account?.blockNumber));
    expect(await c.getProvenAccount(new Uint8Array(20).fill(0x99))).toBeNull();
    const cell = await c.getStorageAt(new Uint8Array(20).fill(0x98), encodeCbor("count"));
    expect(cell.value).toBeNull();
  });

  it("streams new heads and pending transactions over WebSocket", async () => {
    const c = createPublicClient({ transport: devnet.ws });
    const heads: bigint[] = [];
    const pending: string[] = [];
    const s1 = await c.watchBlocks((b) => heads.push(b.number));
    const s2 = await c.watchPendingTransactions((h) => pending.push(toHex(h)));
    const w = createWalletClient({ transport: devnet.http, secretKey: KEY1 });
    const sent = await w.transfer(addressFromSecretKey(KEY0), 5n);
    const deadline = Date.now() + 20_000;
    while ((heads.length < 2 || !pending.includes(toHex(sent.hash))) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(heads.length).toBeGreaterThanOrEqual(2);
    expect((heads[1] as bigint) - (heads[0] as bigint)).toBe(1n);
    expect(pending).toContain(toHex(sent.hash));
    await s1.unsubscribe();
    await s2.unsubscribe();
    await c.close();
  }, 30_000);

  it("faucet, fee history and a refused transaction", async () => {
    const c = createPublicClient({ transport: devnet.http });
    const fresh = new Uint8Array(20).fill(0x5c);
    const hash = await c.requestFaucet(fresh, 1_000_000_000n);
    await c.waitForTransactionReceipt(hash, { timeoutMs: 30_000, pollIntervalMs: 50 });
    expect(await c.getBalance(fresh)).toBe(1_000_000_000n);
    const h = await c.getFeeHistory(3);
    expect(h.cycleBasefee.length).toBe(h.cyclesUsed.length + 1);
    const w = createWalletClient({ transport: devnet.http, secretKey: KEY0 });
    const err = await w.transfer(fresh, 1n, { nonce: 0n }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcRequestError);
    expect((err as RpcRequestError).reason).toMatch(/^ERR_/);
  }, 60_000);
});

describe.skipIf(!hasRuntime)("actors on the devnet (needs the actor runtime in the addon)", () => {
  it("deploys, calls, simulates and reads proven storage", async () => {
    const w = createWalletClient({ transport: devnet.http, secretKey: KEY1 });
    const wait = { timeoutMs: 30_000, pollIntervalMs: 50 };
    const d = await w.deployActor(COUNTER, { args: [10n], wait });
    expect(d.receipt.status).toBe("success");
    expect(bytesEqual(d.receipt.contractAddress as Uint8Array, d.address)).toBe(true);
    expect(await w.readActor({ to: d.address, handler: "get", args: encodeArgs([]) })).toBe(10n);
    const c = await w.callActor(d.address, "increment", [5n], { wait });
    expect(c.result).toBe(15n);
    expect(c.receipt.events.length).toBeGreaterThanOrEqual(1);
    expect(c.receipt.events.some((e) => decodeCbor(e.data) === 15n)).toBe(true);
    expect(await w.readStorage(d.address, "count", c.receipt.blockNumber)).toBe(15n); // an inclusion proof
    const bad = await w.callActor(d.address, "increment", [0n], { wait }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ActorCallError);
    expect((bad as ActorCallError).type).toBe("ValueError");
    expect((bad as ActorCallError).detail).toBe("by must be positive");
    const sim = await w
      .readActor({ to: d.address, handler: "increment", args: encodeArgs([0n]) })
      .catch((e: unknown) => e);
    expect(sim).toBeInstanceOf(ActorCallError);
    expect((sim as ActorCallError).type).toBe("ValueError");
  }, 90_000);

  it("an actor's interval timer is listed and fires", async () => {
    const w = createWalletClient({ transport: devnet.http, secretKey: KEY1 });
    // the actor pays for its timer's firings (each reserves up to 11 CBY here): fund it
    const d = await w.deployActor(COUNTER, {
      args: [1n],
      value: 100n * 10n ** 9n,
      wait: { timeoutMs: 30_000, pollIntervalMs: 50 },
    });
    expect(await w.getBalance(d.address)).toBeGreaterThan(90n * 10n ** 9n);
    const timers = await w.getTimers(d.address);
    expect(timers.map((t) => t.handler)).toEqual(["beat"]);
    expect(timers[0]?.interval).toBe(2n);
    const deadline = Date.now() + 20_000;
    let beats: unknown = 0n;
    while (Date.now() < deadline) {
      beats = await w.readStorage(d.address, "beats");
      if (typeof beats === "bigint" && beats >= 2n) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(beats).toBeGreaterThanOrEqual(2n);
  }, 90_000);
});
