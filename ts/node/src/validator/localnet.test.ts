/**
 * Four validator processes (ts/node/src/validator/main.ts, as `cowboy localnet` starts them)
 * on loopback: BLS Simplex over QUIC, each with its own QMDB state, ledger and JSON-RPC.
 * A signed transfer sent to one validator's RPC is gossiped, included, executed by every
 * validator and finalized with identical block hashes and state roots; with one validator
 * killed the others keep finalizing; restarted, it syncs the blocks it missed (re-executing
 * them) and rejoins; with two down finality halts (no fork) and resumes once they return.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeTransaction, signTransaction, toHex, zeroSignature } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveDevKeys } from "../devnet/accounts.ts";
import {
  DEFAULT_LOCALNET,
  localnetValidatorAddresses,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../localnet.ts";

const N = 4;
const dir = mkdtempSync(join(tmpdir(), "cowboy-localnet-"));
const procs: Array<ValidatorProcess | null> = Array.from({ length: N }, () => null);
const urls: string[] = [];
let paths: string[] = [];

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}
const height = async (i: number) =>
  Number(BigInt((await rpc(urls[i] as string, "cowboy_blockNumber", [])) as string));
const block = async (i: number, h: number) =>
  (await rpc(urls[i] as string, "cowboy_getBlockByNumber", [`0x${h.toString(16)}`, false])) as {
    hash: string;
    stateRoot: string;
    transactions: string[];
  } | null;

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const logs: string[][] = Array.from({ length: N }, () => []);
async function start(i: number): Promise<{ syncedTo: number }> {
  const p = spawnValidator(i, paths[i] as string, (line) => {
    // COWBOY_TEST_LOGS=DIR keeps every validator's log lines for debugging
    if (process.env.COWBOY_TEST_LOGS)
      appendFileSync(join(process.env.COWBOY_TEST_LOGS, `localnet-v${i}.log`), `${line}\n`);
    const l = logs[i] as string[];
    l.push(line);
    if (l.length > 200) l.shift();
  });
  procs[i] = p;
  const r = await p.ready;
  urls[i] = r.rpc;
  return r;
}
async function kill(i: number): Promise<void> {
  const p = procs[i];
  procs[i] = null;
  if (p === null || p === undefined || p.child.exitCode !== null) return;
  p.child.kill("SIGKILL");
  await p.exited;
}

beforeAll(async () => {
  paths = await planLocalnet({
    ...DEFAULT_LOCALNET,
    validators: N,
    dir,
    basePort: 32_000 + Math.floor(Math.random() * 20_000),
    rpcPort: 0,
    blockTimeMs: 200,
    leaderTimeoutMs: 1_000,
    notarizationTimeoutMs: 2_000,
    logLevel: "info",
  });
  await Promise.all(paths.map((_, i) => start(i)));
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((_, i) => kill(i)));
  rmSync(dir, { recursive: true, force: true });
});

describe("localnet: four validator processes run one chain", () => {
  it("finalize a signed transfer sent to one validator: same block hash and state root everywhere", async () => {
    const [alice, bob] = deriveDevKeys(2).accounts;
    if (alice === undefined || bob === undefined) throw new Error("no dev accounts");
    const url0 = urls[0] as string;
    await waitFor("a first finalized block", async () => (await height(0)) >= 1);
    const before = BigInt((await rpc(url0, "cowboy_getBalance", [toHex(bob.address)])) as string);
    const tx = signTransaction(
      {
        chainId: BigInt((await rpc(url0, "cowboy_chainId", [])) as string),
        nonce: BigInt(
          (await rpc(url0, "cowboy_getTransactionCount", [toHex(alice.address), "pending"])) as string,
        ),
        instruction: { kind: "transfer", to: bob.address, amount: 12_345n },
        cyclesLimit: 21_000n,
        cellsLimit: 1_000n,
        maxFeePerCycle: 20_000n,
        maxFeePerCell: 20_000n,
        maxPriorityFeePerCycle: 0n,
        maxPriorityFeePerCell: 0n,
        from: alice.address,
        accessList: null,
        metadata: new Uint8Array(0),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: zeroSignature(),
        additionalSigners: [],
      },
      alice.secretKey,
    );
    const hash = (await rpc(url0, "cowboy_sendRawTransaction", [toHex(encodeTransaction(tx))])) as string;
    // every validator serves the receipt once the block holding it is final there
    const receipts: Array<{ status: string; blockNumber: string; blockHash: string }> = [];
    for (let i = 0; i < N; i++) {
      await waitFor(`the receipt on validator ${i}`, async () => {
        const r = (await rpc(urls[i] as string, "cowboy_getTransactionReceipt", [hash])) as {
          status: string;
          blockNumber: string;
          blockHash: string;
        } | null;
        if (r !== null) receipts[i] = r;
        return r !== null;
      });
    }
    expect(receipts.every((r) => r.status === "success")).toBe(true);
    expect(new Set(receipts.map((r) => r.blockHash)).size).toBe(1);
    const h = Number(BigInt((receipts[0] as { blockNumber: string }).blockNumber));
    const blocks = await Promise.all(urls.map((_, i) => block(i, h)));
    expect(blocks.every((b) => b?.transactions.includes(hash) === true)).toBe(true);
    expect(new Set(blocks.map((b) => b?.hash)).size).toBe(1);
    expect(new Set(blocks.map((b) => b?.stateRoot)).size).toBe(1);
    for (let i = 0; i < N; i++) {
      const bal = BigInt(
        (await rpc(urls[i] as string, "cowboy_getBalance", [
          toHex(bob.address),
          `0x${h.toString(16)}`,
        ])) as string,
      );
      expect(bal).toBe(before + 12_345n);
    }
    // the faucet of validator 1 pays; validator 2 serves the new balance once final
    const fresh = `0x${"c0ffee".padEnd(40, "7")}`;
    const paid = (await rpc(urls[1] as string, "cowboy_faucet", [fresh, "0x3e8"])) as string;
    expect(paid).toMatch(/^0x[0-9a-f]{64}$/);
    await waitFor(
      "the faucet transfer on validator 2",
      async () => BigInt((await rpc(urls[2] as string, "cowboy_getBalance", [fresh])) as string) === 1_000n,
    );
    const accounts = (await rpc(urls[3] as string, "cowboy_devAccounts", [])) as Array<{ address: string }>;
    expect(accounts[0]?.address).toBe(toHex(alice.address));
    // Prometheus metrics on every validator's RPC server
    for (let i = 0; i < N; i++) {
      const text = await (await fetch(`${urls[i]}metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
      expect(value("cowboy_validator_finalized_height")).toBeGreaterThanOrEqual(h);
      expect(value("cowboy_validator_view")).toBeGreaterThan(0);
      expect(value("cowboy_validator_peers")).toBeGreaterThanOrEqual(N - 1);
      expect(text).toMatch(/^cowboy_validator_votes_sent_total\{kind="finalize"\} [1-9]/m);
      expect(text).toMatch(/^cowboy_validator_votes_received_total\{kind="notarize"\} [1-9]/m);
      expect(text).toMatch(/^cowboy_validator_certificate_latency_seconds_count [1-9]/m);
      expect(text).toMatch(/^cowboy_validator_committed_transactions_total [1-9]/m);
    }
    // and a later common height agrees too
    const common = Math.min(...(await Promise.all(urls.map((_, i) => height(i)))));
    const later = await Promise.all(urls.map((_, i) => block(i, common)));
    expect(new Set(later.map((b) => `${b?.hash}/${b?.stateRoot}`)).size).toBe(1);
  }, 60_000);

  it("one validator killed: the others keep finalizing; restarted, it syncs, re-executes and votes again", async () => {
    await kill(3);
    const h1 = Math.max(...(await Promise.all([0, 1, 2].map(height))));
    await waitFor("5 more blocks with validator 3 down", async () =>
      (await Promise.all([0, 1, 2].map(height))).every((h) => h >= h1 + 5),
    );
    const h2 = Math.min(...(await Promise.all([0, 1, 2].map(height))));
    // downtime accounting: blocks carry their parent's certificate, whose signers are the
    // `participants` of the state transition; validator 3's votes are missing from every one
    const record = (await rpc(urls[0] as string, "cowboy_getValidator", [
      toHex(localnetValidatorAddresses(N)[3] as Uint8Array),
    ])) as { missed: number };
    expect(record.missed).toBeGreaterThanOrEqual(4);
    await start(3);
    // it re-executes what it missed (block sync or the voter's fetching) and keeps up
    await waitFor("validator 3 past the blocks it missed", async () => (await height(3)) >= h2 + 3);
    const common = Math.min(...(await Promise.all([0, 1, 2, 3].map(height))));
    const blocks = await Promise.all([0, 1, 2, 3].map((i) => block(i, common)));
    expect(new Set(blocks.map((b) => `${b?.hash}/${b?.stateRoot}`)).size).toBe(1);
    const missed = await Promise.all([0, 3].map((i) => block(i, h2)));
    expect(missed[0]?.hash).toBe(missed[1]?.hash);
    expect(missed[0]?.stateRoot).toBe(missed[1]?.stateRoot);
    // it votes again: with validator 0 down, finality needs validator 3
    await kill(0);
    const h3 = Math.max(...(await Promise.all([1, 2, 3].map(height))));
    await waitFor("3 more blocks with validator 0 down (validator 3 voting)", async () =>
      (await Promise.all([1, 2, 3].map(height))).every((h) => h >= h3 + 3),
    );
    const tip = Math.min(...(await Promise.all([1, 2, 3].map(height))));
    const last = await Promise.all([1, 2, 3].map((i) => block(i, tip)));
    expect(new Set(last.map((b) => `${b?.hash}/${b?.stateRoot}`)).size).toBe(1);
  }, 60_000);

  it("two validators down: finality halts without a fork; restarted, it resumes", async () => {
    // live now: 1, 2, 3 (0 is down); take 1 down too
    await kill(1);
    await new Promise((r) => setTimeout(r, 1_500));
    const stalled = await Promise.all([2, 3].map(height));
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await Promise.all([2, 3].map(height))).toEqual(stalled);
    await Promise.all([start(0), start(1)]);
    const top = Math.max(...stalled);
    await waitFor("finality again with all four", async () =>
      (await Promise.all([0, 1, 2, 3].map(height))).every((h) => h >= top + 3),
    );
    // one chain: every height up to the common tip has the same hash and root everywhere
    const common = Math.min(...(await Promise.all([0, 1, 2, 3].map(height))));
    for (let h = 1; h <= common; h += Math.max(1, Math.floor(common / 10))) {
      const bs = await Promise.all([0, 1, 2, 3].map((i) => block(i, h)));
      expect(new Set(bs.map((b) => `${b?.hash}/${b?.stateRoot}`)).size).toBe(1);
    }
  }, 60_000);
});
