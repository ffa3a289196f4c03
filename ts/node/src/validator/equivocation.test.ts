/**
 * Equivocation across processes: four validators (`cowboyd --config`, as `cowboy localnet`
 * starts them), validator 3 with the testing-only `faults.equivocate` switch, which makes it
 * sign a second, conflicting notarize vote in one view. The honest validators detect the
 * conflict, make and gossip evidence, and one of them submits it on chain as a
 * `submitEvidence` transaction signed by its operator account; the state transition verifies
 * it, slashes 1% of validator 3's stake and jails it, and the chain's validator set of the
 * next epoch (10-block epochs here) no longer contains it. Meanwhile the chain keeps
 * finalizing with one block hash everywhere. Then the whole network is killed at once and
 * restarted: it finalizes again (journaled certificates and kept pending blocks).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toHex } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_LOCALNET,
  LOCALNET_STAKE,
  localnetValidatorAddresses,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../localnet.ts";

const N = 4;
const EVIL = 3;
const EPOCH = 10;
const dir = mkdtempSync(join(tmpdir(), "cowboy-equivocation-"));
const procs: Array<ValidatorProcess | null> = Array.from({ length: N }, () => null);
const urls: string[] = [];
let paths: string[] = [];
const logs: string[][] = Array.from({ length: N }, () => []);

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

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function start(i: number): Promise<void> {
  const p = spawnValidator(i, paths[i] as string, (line) => {
    // COWBOY_TEST_LOGS=DIR keeps every validator's log lines for debugging
    if (process.env.COWBOY_TEST_LOGS)
      appendFileSync(join(process.env.COWBOY_TEST_LOGS, `equivocation-v${i}.log`), `${line}\n`);
    const l = logs[i] as string[];
    l.push(line);
    if (l.length > 400) l.shift();
  });
  procs[i] = p;
  try {
    urls[i] = (await p.ready).rpc;
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; last log lines:\n${(logs[i] as string[]).slice(-8).join("\n")}`,
    );
  }
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
    basePort: 33_000 + Math.floor(Math.random() * 20_000),
    rpcPort: 0,
    blockTimeMs: 200,
    epochBlocks: EPOCH,
    logLevel: "info",
  });
  // the testing-only fault switch of the config file
  const cfgPath = paths[EVIL] as string;
  const cfg = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
  writeFileSync(cfgPath, JSON.stringify({ ...cfg, faults: { equivocate: true } }, null, 2));
  await Promise.all(paths.map((_, i) => start(i)));
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((_, i) => kill(i)));
  rmSync(dir, { recursive: true, force: true });
});

interface Record_ {
  stake: string;
  slashed: string;
  jailedUntil: string;
  jailCount: number;
}

describe("an equivocating validator (4 processes)", () => {
  it("is detected, its evidence is included on chain, it is slashed 1% and jailed, and leaves the next epoch's set", async () => {
    const evil = toHex(localnetValidatorAddresses(N)[EVIL] as Uint8Array);
    // detected by every honest validator (directly or through evidence gossip)
    for (const i of [0, 1, 2]) {
      await waitFor(`evidence on validator ${i}`, async () => {
        const s = (await rpc(urls[i] as string, "cowboy_consensusStatus", [])) as { evidence: string };
        return BigInt(s.evidence) >= 1n;
      });
    }
    // the evidence transaction is executed: slashed 1% and jailed, seen on every validator
    const records: Record_[] = [];
    for (const i of [0, 1, 2, 3]) {
      await waitFor(`the punishment on validator ${i}`, async () => {
        const r = (await rpc(urls[i] as string, "cowboy_getValidator", [evil])) as Record_ | null;
        if (r !== null && BigInt(r.jailedUntil) > 0n) records[i] = r;
        return records[i] !== undefined;
      });
    }
    const slash = LOCALNET_STAKE / 100n;
    for (const r of records) {
      expect(BigInt(r.slashed)).toBe(slash);
      expect(BigInt(r.stake)).toBe(LOCALNET_STAKE - slash);
      expect(r.jailCount).toBe(1);
    }
    // exactly one submitEvidence transaction succeeded: find it in the finalized blocks
    const tip = await height(0);
    let included = 0;
    let jailedAt = -1;
    for (let h = 1; h <= tip; h++) {
      const b = (await rpc(urls[0] as string, "cowboy_getBlockByNumber", [`0x${h.toString(16)}`, true])) as {
        transactions: Array<{ hash: string; instruction?: { kind: string } }>;
      };
      for (const tx of b.transactions) {
        if (tx.instruction?.kind !== "submitEvidence") continue;
        const receipt = (await rpc(urls[0] as string, "cowboy_getTransactionReceipt", [tx.hash])) as {
          status: string;
        };
        if (receipt.status === "success") {
          included++;
          jailedAt = h;
        }
      }
    }
    expect(included).toBe(1);
    // the set of the epoch after the jailing no longer holds it (the epochs before still do)
    const next = Math.floor((jailedAt + EPOCH - Math.floor(EPOCH / 2)) / EPOCH) + 1; // frozen at F(e) = e·E + ⌊E/2⌋
    await waitFor("the next epoch", async () => (await height(0)) >= next * EPOCH);
    const setOf = async (e: number) =>
      (
        (await rpc(urls[0] as string, "cowboy_getValidators", [`0x${e.toString(16)}`])) as {
          validators: Array<{ address: string }>;
        }
      ).validators.map((m) => m.address);
    expect(await setOf(0)).toContain(evil);
    const after = await setOf(next);
    expect(after).toHaveLength(N - 1);
    expect(after).not.toContain(evil);
    // the metrics say the same
    const text = await (await fetch(`${urls[1]}metrics`)).text();
    expect(text).toMatch(/^cowboy_validator_equivocations_detected_total [1-9]/m);
    // and the chain stayed one chain
    const common = Math.min(...(await Promise.all([0, 1, 2, 3].map(height))));
    const hashes = await Promise.all(
      [0, 1, 2, 3].map(
        async (i) =>
          (
            (await rpc(urls[i] as string, "cowboy_getBlockByNumber", [
              `0x${common.toString(16)}`,
              false,
            ])) as {
              hash: string;
            }
          ).hash,
      ),
    );
    expect(new Set(hashes).size).toBe(1);
  }, 120_000);

  it("the whole network killed at once and restarted finalizes again", async () => {
    const before = Math.max(...(await Promise.all([0, 1, 2, 3].map(height))));
    await Promise.all([0, 1, 2, 3].map(kill));
    await Promise.all([0, 1, 2, 3].map(start));
    await waitFor("finality after a full restart", async () =>
      (await Promise.all([0, 1, 2, 3].map(height))).every((h) => h >= before + 5),
    );
  }, 90_000);
});
