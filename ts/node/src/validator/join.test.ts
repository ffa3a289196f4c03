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
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bitmapHas } from "@cowboy/consensus";
import { toHex } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localnetValidatorAddresses, spawnValidator } from "../localnet.ts";
import { decodeConsensusBlock, participantsOf } from "./block.ts";
import type { NetworkFile, ValidatorFileConfig } from "./config.ts";
import { compareRounds, Localnet, lastSignedRound, sleep, waitFor } from "./localnet-harness.ts";

const N = 4;
const E = 12;
const CLI = join(import.meta.dirname, "..", "..", "..", "cli", "bin", "cowboy.js");
let net: Localnet;

/** Runs the `cowboy` CLI in `cwd` against validator 0's RPC. */
function cowboy(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, COWBOY_RPC: net.url(0), NO_COLOR: "1" },
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

/** Signers of the parent certificates of the blocks above `height` in validator `i`'s finalized.log. */
function credited(i: number, height: number): number[][] {
  return net
    .finalizedLog(i)
    .filter((e) => e.h > height)
    .map((e) => participantsOf(decodeConsensusBlock(Buffer.from(e.b, "hex"))) ?? []);
}

beforeAll(async () => {
  // ports: the four, the joining node (N) and the refused one (N + 1)
  net = await Localnet.start({
    name: "join",
    validators: N,
    ports: N + 2,
    options: { blockTimeMs: 250, epochBlocks: E },
  });
}, 120_000);

afterAll(async () => {
  await net?.stop();
});

describe("a validator joins a running network", () => {
  let address = "";
  let activation = 0;

  it("a keygen key that is not in the network file starts a follower from bootstrap peers", async () => {
    const v4 = net.dataDir(N);
    mkdirSync(v4, { recursive: true });
    const chainId = BigInt((await net.rpc(0, "cowboy_chainId")) as string).toString();
    const kg = await cowboy(
      ["validator", "keygen", "--dev", "5", "--chain-id", chainId, "--out", "validator.key", "--json"],
      v4,
    );
    expect(kg.code, kg.stderr).toBe(0);
    address = (JSON.parse(kg.stdout) as { address: string }).address.toLowerCase();
    const network = JSON.parse(readFileSync(join(net.dir, "network.json"), "utf8")) as NetworkFile;
    expect(network.validators.map((v) => v.address.toLowerCase())).not.toContain(address);
    const v0 = JSON.parse(readFileSync(net.paths[0] as string, "utf8")) as ValidatorFileConfig;
    const cfg: ValidatorFileConfig = {
      ...v0,
      keyFile: "validator.key",
      p2p: {
        listen: [`/ip4/127.0.0.1/udp/${net.basePort + N}/quic-v1`],
        bootstrap: network.validators.map(
          (v, j) => `/ip4/127.0.0.1/udp/${net.basePort + j}/quic-v1/p2p/${v.peerId}`,
        ),
      },
      rpc: { host: "127.0.0.1", port: 0 },
    };
    const path = join(v4, "config.json");
    writeFileSync(path, `${JSON.stringify(cfg, null, 2)}\n`);
    await net.spawn(N, path);
    await waitFor(
      "the follower to sync",
      async () => (await net.height(N)) >= (await net.height(0)) - 2 && (await net.height(N)) > 3,
    );
    const s = await net.status(N);
    expect(s.index).toBe(-1);
    expect(s.voting).toBe(false);
  }, 150_000);

  it("registers through the CLI; the chain puts it in a later epoch's set", async () => {
    // early in an epoch: the announcement is bound everywhere well before the freeze point
    await waitFor("the start of an epoch", async () => (await net.height(0)) % E <= 1, 90_000, 50);
    const reg = await cowboy(
      ["validator", "register", "--stake", "20000", "--key", "validator.key", "--json"],
      net.dataDir(N),
    );
    expect(reg.code, reg.stderr).toBe(0);
    const out = JSON.parse(reg.stdout) as { blockNumber: string; validator: { activationEpoch: string } };
    activation = Number(out.validator.activationEpoch);
    const at = Number(out.blockNumber);
    expect(activation).toBe(Math.floor(at / E) + (at % E < Math.floor(E / 2) ? 1 : 2));
    await net.waitForHeight([0], activation * E - 1, "the set of the activation epoch", 180_000);
    expect(await net.validatorsOf(activation)).toContain(address);
    expect(await net.validatorsOf(activation - 1)).not.toContain(address);
  }, 300_000);

  it("from that epoch on it votes: the chain credits its votes and all five agree", async () => {
    await waitFor(
      "the new validator to vote",
      async () => {
        const s = await net.status(N);
        return s.voting && s.epoch >= activation;
      },
      180_000,
    );
    const set = await net.validatorsOf(activation);
    const me = set.indexOf(address);
    expect(me).toBeGreaterThanOrEqual(0);
    expect(set.length).toBe(N + 1);
    const five = [...net.validators, N];
    const h0 = await net.height(0);
    await net.waitForHeight([0], h0 + 8, "more blocks with five voters", 180_000);
    expect(
      net.finalizedLog(0).filter((e) => e.c !== null && e.c.round.epoch >= activation).length,
    ).toBeGreaterThan(0);
    // its votes count: blocks carry their parent's certificate with every vote the proposer
    // held (not only the first quorum, which four fast originals can form without it), and
    // the chain's downtime accounting credits those signers
    await waitFor(
      "a block crediting the newcomer's vote",
      () => credited(0, activation * E).some((signers) => signers.includes(me)),
      180_000,
    );
    await net.waitForHeight(five, h0 + 4, "every node at a common height");
    const h = await net.commonHeight(five);
    for (const at of [activation * E - 1, activation * E, h])
      expect(new Set(await Promise.all(five.map((i) => net.hashAt(i, at)))).size).toBe(1);
  }, 400_000);

  it("with one of the original four down, finality needs the newcomer's votes and continues", async () => {
    await net.kill(3);
    const h0 = await net.height(0);
    const live = [0, 1, 2, N];
    await net.waitForHeight([0], h0 + 6, "finality with four of five", 180_000);
    await net.waitForHeight(live, h0 + 4, "the live nodes at a common height");
    expect(new Set(await Promise.all(live.map((i) => net.hashAt(i, h0 + 4)))).size).toBe(1);
    const set = await net.validatorsOf(activation);
    const me = set.indexOf(address);
    const three = set.indexOf(toHex(localnetValidatorAddresses(N)[3] as Uint8Array).toLowerCase());
    expect(three).toBeGreaterThanOrEqual(0);
    expect(await net.validatorsOf(Math.floor((await net.height(0)) / E))).toEqual(
      await net.validatorsOf(activation),
    );
    // validator 3's last vote (its journal is fsynced before a vote is sent): a certificate of a
    // later round has at most four live signers of five, so it carries the newcomer
    const dead = lastSignedRound(net.dataDir(3));
    expect(dead).not.toBeNull();
    const late = net
      .finalizedLog(0)
      .filter((e) => e.c !== null && compareRounds(e.c.round, dead as { epoch: number; view: number }) > 0);
    expect(late.length).toBeGreaterThan(0);
    for (const e of late) {
      const signers = Buffer.from(e.c?.signers as string, "hex");
      expect(bitmapHas(signers, me), `certificate of height ${e.h}`).toBe(true);
      expect(bitmapHas(signers, three), `certificate of height ${e.h}`).toBe(false);
    }
  }, 300_000);

  it("the newcomer restarted (its share on disk): finality, halted without it, resumes", async () => {
    await net.kill(N);
    // three of five live: no quorum. Votes it sent before the kill may still complete a
    // certificate (late on a loaded machine): wait until node 0's tip has not moved for 1.5 s
    let h0 = 0;
    await waitFor(
      "finality to halt with three of five live",
      async () => {
        const before = await net.height(0);
        await sleep(1_500);
        h0 = await net.height(0);
        return h0 === before;
      },
      60_000,
      0,
    );
    await sleep(3_000);
    expect(await net.height(0)).toBeLessThanOrEqual(h0 + 1);
    // exactly: no certificate of a round after the newcomer's last vote (validator 3 is down too)
    const last = lastSignedRound(net.dataDir(N));
    expect(last).not.toBeNull();
    const after = net
      .finalizedLog(0)
      .filter((e) => e.c !== null && compareRounds(e.c.round, last as { epoch: number; view: number }) > 0);
    expect(after.map((e) => e.h)).toEqual([]);
    await net.spawn(N);
    await net.waitForHeight([0], h0 + 4, "finality again", 180_000);
    // finality with 0, 1, 2 and it (4 of 5) means it votes again
    expect((await net.status(N)).voting).toBe(true);
    const h = await net.commonHeight([0, N]);
    expect(await net.hashAt(N, h)).toBe(await net.hashAt(0, h));
  }, 300_000);

  it("a genesis validator restarted binds the newcomer from its saved announcement, without penalizing it", async () => {
    const saved = JSON.parse(readFileSync(join(net.dataDir(1), "announcements.json"), "utf8")) as string[];
    expect(saved).toHaveLength(1);
    await net.kill(1, "SIGTERM");
    (net.logs[1] as string[]).length = 0;
    const h0 = await net.height(0);
    await net.spawn(1);
    await net.waitForHeight([1], h0 + 4, "finality with the restarted validator", 180_000);
    // validator 3 is down: finality needs validator 1's votes
    expect((await net.status(1)).voting).toBe(true);
    const penalties = (net.logs[1] as string[]).filter(
      (l) => l.includes("peer penalized") || l.includes("peer banned"),
    );
    expect(penalties).toEqual([]);
  }, 300_000);

  it("a joining key on a listed validator's p2p identity is refused (ERR_VALIDATOR_IDENTITY)", async () => {
    const v5 = net.dataDir(N + 1);
    mkdirSync(v5, { recursive: true });
    copyFileSync(join(net.dataDir(0), "p2p.key"), join(v5, "p2p.key"));
    copyFileSync(join(net.dataDir(N), "validator.key"), join(v5, "validator.key"));
    const cfg = JSON.parse(readFileSync(net.paths[N] as string, "utf8")) as ValidatorFileConfig;
    cfg.p2p = { listen: [`/ip4/127.0.0.1/udp/${net.basePort + N + 1}/quic-v1`], bootstrap: [] };
    writeFileSync(join(v5, "config.json"), JSON.stringify(cfg));
    const lines: string[] = [];
    const p = spawnValidator(N + 1, join(v5, "config.json"), (line) => lines.push(line));
    expect(await p.exited).toBe(1);
    expect(lines.join("\n")).toMatch(
      /ERR_VALIDATOR_IDENTITY: this node's peer id \S+ is validator 0's in the network file/,
    );
  }, 120_000);
});
