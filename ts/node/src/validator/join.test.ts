/**
 * A new validator joins a running network (docs/validator.md "Joining a running network"):
 * four localnet validators run with 12-block epochs and a genesis DKG group; a fifth key is
 * made by `cowboy validator keygen` (operator: development account 5, funded at genesis); the
 * fifth node starts with that key file and only bootstrap peers — it is not in the network file,
 * so it follows the chain without voting. Its operator sends `registerValidator` with `cowboy
 * validator register`; the chain freezes it into the set of a later epoch, the four reshare the
 * group to five (the fifth node is a player, reached through its signed peer announcement), and
 * from that epoch on the fifth node votes: the chain credits its votes (blocks' parent certificates),
 * and with one of the original four killed the chain still finalizes (4 of 5 is the quorum, so
 * it cannot without the newcomer's votes) — one chain on every node.
 */
import { spawn } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LOCALNET, planLocalnet, spawnValidator, type ValidatorProcess } from "../localnet.ts";
import { decodeConsensusBlock, participantsOf } from "./block.ts";
import type { NetworkFile, ValidatorFileConfig } from "./config.ts";

const N = 4;
const E = 12;
const CLI = join(import.meta.dirname, "..", "..", "..", "cli", "bin", "cowboy.js");
const dir = mkdtempSync(join(tmpdir(), "cowboy-join-"));
const procs: Array<ValidatorProcess | null> = Array.from({ length: N + 1 }, () => null);
const urls: string[] = [];
let paths: string[] = [];
/** every log line of each validator process (all starts) */
const logs: string[][] = Array.from({ length: N + 2 }, () => []);

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
const num = (q: string) => Number(BigInt(q));
const height = async (i: number) => num((await rpc(urls[i] as string, "cowboy_blockNumber", [])) as string);
const hashAt = async (i: number, h: number) =>
  (
    (await rpc(urls[i] as string, "cowboy_getBlockByNumber", [`0x${h.toString(16)}`, false])) as {
      hash: string;
    }
  ).hash;
const status = async (i: number) => {
  const s = (await rpc(urls[i] as string, "cowboy_consensusStatus", [])) as {
    index: number;
    epoch: string;
    voting: boolean;
  };
  return { index: s.index, epoch: num(s.epoch), voting: s.voting };
};
const setOf = async (epoch: number) =>
  (
    (await rpc(urls[0] as string, "cowboy_getValidators", [`0x${epoch.toString(16)}`])) as {
      validators: Array<{ address: string }>;
    }
  ).validators.map((v) => v.address.toLowerCase());

async function waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let ok = false;
    try {
      ok = await cond();
    } catch {
      ok = false;
    }
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs the `cowboy` CLI in `cwd` against validator 0's RPC. */
function cowboy(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, COWBOY_RPC: urls[0] as string, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function start(i: number): Promise<void> {
  const p = spawnValidator(i, paths[i] as string, (line) => {
    logs[i]?.push(line);
    if (process.env.COWBOY_TEST_LOGS)
      appendFileSync(join(process.env.COWBOY_TEST_LOGS, `join-v${i}.log`), `${line}\n`);
  });
  procs[i] = p;
  urls[i] = (await p.ready).rpc;
}

/** Signer bits of the finalization certificates of epochs ≥ `epoch` in validator `i`'s finalized.log. */
function certificates(i: number, epoch: number): Array<{ h: number; signers: Uint8Array }> {
  const out: Array<{ h: number; signers: Uint8Array }> = [];
  for (const line of readFileSync(join(dir, `v${i}`, "finalized.log"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const e = JSON.parse(line) as { h: number; c: { round: { epoch: number }; signers: string } | null };
    if (e.c !== null && e.c.round.epoch >= epoch)
      out.push({ h: e.h, signers: Uint8Array.from(Buffer.from(e.c.signers, "hex")) });
  }
  return out;
}
/** Signers of the parent certificates of the blocks above `height` in validator `i`'s finalized.log. */
function credited(i: number, height: number): number[][] {
  const out: number[][] = [];
  for (const line of readFileSync(join(dir, `v${i}`, "finalized.log"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const e = JSON.parse(line) as { h: number; b: string };
    if (e.h <= height) continue;
    out.push(participantsOf(decodeConsensusBlock(Buffer.from(e.b, "hex"))) ?? []);
  }
  return out;
}
const hasBit = (bits: Uint8Array, i: number) => (((bits[i >> 3] ?? 0) >> (i & 7)) & 1) === 1;

const basePort = 32_000 + Math.floor(Math.random() * 20_000);

beforeAll(async () => {
  paths = await planLocalnet({
    ...DEFAULT_LOCALNET,
    validators: N,
    dir,
    basePort,
    rpcPort: 0,
    blockTimeMs: 250,
    epochBlocks: E,
    logLevel: "info",
  });
  await Promise.all(paths.map((_, i) => start(i)));
}, 60_000);

afterAll(async () => {
  for (const p of procs) if (p !== null && p.child.exitCode === null) p.child.kill("SIGKILL");
  await Promise.all(procs.map((p) => p?.exited));
  rmSync(dir, { recursive: true, force: true });
});

describe("a validator joins a running network", () => {
  let address = "";
  let activation = 0;

  it("a keygen key that is not in the network file starts a follower from bootstrap peers", async () => {
    const v4 = join(dir, "v4");
    mkdirSync(v4, { recursive: true });
    const chainId = BigInt((await rpc(urls[0] as string, "cowboy_chainId", [])) as string).toString();
    const kg = await cowboy(
      ["validator", "keygen", "--dev", "5", "--chain-id", chainId, "--out", "validator.key", "--json"],
      v4,
    );
    expect(kg.code, kg.stderr).toBe(0);
    address = (JSON.parse(kg.stdout) as { address: string }).address.toLowerCase();
    const network = JSON.parse(readFileSync(join(dir, "network.json"), "utf8")) as NetworkFile;
    expect(network.validators.map((v) => v.address.toLowerCase())).not.toContain(address);
    const v0 = JSON.parse(readFileSync(paths[0] as string, "utf8")) as ValidatorFileConfig;
    const cfg: ValidatorFileConfig = {
      ...v0,
      keyFile: "validator.key",
      p2p: {
        listen: [`/ip4/127.0.0.1/udp/${basePort + N}/quic-v1`],
        bootstrap: network.validators.map(
          (v, j) => `/ip4/127.0.0.1/udp/${basePort + j}/quic-v1/p2p/${v.peerId}`,
        ),
      },
      rpc: { host: "127.0.0.1", port: 0 },
    };
    const path = join(v4, "config.json");
    writeFileSync(path, `${JSON.stringify(cfg, null, 2)}\n`);
    paths[N] = path;
    await start(N);
    await waitFor(
      "the follower to sync",
      async () => (await height(N)) >= (await height(0)) - 2 && (await height(N)) > 3,
    );
    const s = await status(N);
    expect(s.index).toBe(-1);
    expect(s.voting).toBe(false);
  }, 90_000);

  it("registers through the CLI; the chain puts it in a later epoch's set", async () => {
    // early in an epoch: the announcement is bound everywhere well before the freeze point
    await waitFor("the start of an epoch", async () => (await height(0)) % E <= 1, 30_000);
    const reg = await cowboy(
      ["validator", "register", "--stake", "20000", "--key", "validator.key", "--json"],
      join(dir, "v4"),
    );
    expect(reg.code, reg.stderr).toBe(0);
    const out = JSON.parse(reg.stdout) as { blockNumber: string; validator: { activationEpoch: string } };
    activation = Number(out.validator.activationEpoch);
    const at = Number(out.blockNumber);
    expect(activation).toBe(Math.floor(at / E) + (at % E < Math.floor(E / 2) ? 1 : 2));
    await waitFor(
      "the set of the activation epoch",
      async () => (await height(0)) >= activation * E - 1,
      120_000,
    );
    expect(await setOf(activation)).toContain(address);
    expect(await setOf(activation - 1)).not.toContain(address);
  }, 180_000);

  it("from that epoch on it votes: the chain credits its votes and all five agree", async () => {
    await waitFor(
      "the new validator to vote",
      async () => {
        const s = await status(N);
        return s.voting && s.epoch >= activation;
      },
      90_000,
    );
    const set = await setOf(activation);
    const me = set.indexOf(address);
    expect(me).toBeGreaterThanOrEqual(0);
    expect(set.length).toBe(N + 1);
    const h0 = await height(0);
    await waitFor("more blocks with five voters", async () => (await height(0)) >= h0 + 8, 90_000);
    expect(certificates(0, activation).length).toBeGreaterThan(0);
    // its votes count: blocks carry their parent's certificate with every vote the proposer
    // held (not only the first quorum, which four fast originals can form without it), and
    // the chain's downtime accounting credits those signers
    await waitFor("a block crediting the newcomer's vote", async () =>
      credited(0, activation * E).some((signers) => signers.includes(me)),
    );
    await waitFor("every node at a common height", async () => {
      const hs = await Promise.all(urls.map((_, i) => height(i)));
      return Math.min(...hs) >= h0 + 4;
    });
    const h = Math.min(...(await Promise.all(urls.map((_, i) => height(i)))));
    for (const at of [activation * E - 1, activation * E, h]) {
      const hashes = await Promise.all(urls.map((_, i) => hashAt(i, at)));
      expect(new Set(hashes).size).toBe(1);
    }
  }, 240_000);

  it("with one of the original four down, finality needs the newcomer's votes and continues", async () => {
    const p = procs[3] as ValidatorProcess;
    p.child.kill("SIGKILL");
    await p.exited;
    procs[3] = null;
    const h0 = await height(0);
    await waitFor("finality with four of five", async () => (await height(0)) >= h0 + 6, 120_000);
    const live = [0, 1, 2, N];
    await waitFor("the live nodes at a common height", async () => {
      const hs = await Promise.all(live.map((i) => height(i)));
      return Math.min(...hs) >= h0 + 4;
    });
    const hashes = await Promise.all(live.map((i) => hashAt(i, h0 + 4)));
    expect(new Set(hashes).size).toBe(1);
    const late = certificates(0, activation).filter((c) => c.h > h0 + 1);
    expect(late.length).toBeGreaterThan(0);
    const me = (await setOf(activation)).indexOf(address);
    expect(await setOf(Math.floor((await height(0)) / E))).toEqual(await setOf(activation));
    // four live signers of five: every certificate after the kill carries the newcomer
    for (const c of late) expect(hasBit(c.signers, me)).toBe(true);
  }, 180_000);

  it("the newcomer restarted (its share on disk): finality, halted without it, resumes", async () => {
    const p = procs[N] as ValidatorProcess;
    p.child.kill("SIGKILL");
    await p.exited;
    procs[N] = null;
    // three of five live: no quorum
    const h0 = await height(0);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await height(0)).toBeLessThanOrEqual(h0 + 1);
    await start(N);
    await waitFor("finality again", async () => (await height(0)) >= h0 + 4, 90_000);
    const s = await status(N);
    expect(s.voting).toBe(true);
    const h = Math.min(await height(0), await height(N));
    expect(await hashAt(N, h)).toBe(await hashAt(0, h));
  }, 150_000);

  it("a genesis validator restarted binds the newcomer from its saved announcement, without penalizing it", async () => {
    const saved = JSON.parse(readFileSync(join(dir, "v1", "announcements.json"), "utf8")) as string[];
    expect(saved).toHaveLength(1);
    const p = procs[1] as ValidatorProcess;
    p.child.kill("SIGTERM");
    await p.exited;
    procs[1] = null;
    (logs[1] as string[]).length = 0;
    const h0 = await height(0);
    await start(1);
    await waitFor("finality with the restarted validator", async () => (await height(1)) >= h0 + 4, 90_000);
    expect((await status(1)).voting).toBe(true);
    const penalties = (logs[1] as string[]).filter(
      (l) => l.includes("peer penalized") || l.includes("peer banned"),
    );
    expect(penalties).toEqual([]);
  }, 150_000);

  it("a joining key on a listed validator's p2p identity is refused (ERR_VALIDATOR_IDENTITY)", async () => {
    const v5 = join(dir, "v5");
    mkdirSync(v5, { recursive: true });
    copyFileSync(join(dir, "v0", "p2p.key"), join(v5, "p2p.key"));
    copyFileSync(join(dir, "v4", "validator.key"), join(v5, "validator.key"));
    const cfg = JSON.parse(readFileSync(paths[N] as string, "utf8")) as ValidatorFileConfig;
    cfg.p2p = { listen: [`/ip4/127.0.0.1/udp/${basePort + N + 1}/quic-v1`], bootstrap: [] };
    writeFileSync(join(v5, "config.json"), JSON.stringify(cfg));
    const lines: string[] = [];
    const p = spawnValidator(N + 1, join(v5, "config.json"), (line) => lines.push(line));
    expect(await p.exited).toBe(1);
    expect(lines.join("\n")).toMatch(
      /ERR_VALIDATOR_IDENTITY: this node's peer id \S+ is validator 0's in the network file/,
    );
  }, 60_000);
});
