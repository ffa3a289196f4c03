/**
 * The recovery rule of the devnet (docs/devnet.md "crash safety") on the real state store:
 * a crash between the state commit of block N and its ledger append leaves the state one
 * block ahead; the next start must discard that state, re-execute the ledger, and continue
 * from the ledger's head with every recorded block and balance unchanged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBlock, toHex } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { openQmdbState } from "../../src/cowboyd.ts";
import { DEFAULT_DEVNET_CONFIG, type DevnetConfig } from "../../src/devnet/config.ts";
import { readGenesisFile } from "../../src/devnet/genesis-file.ts";
import type { Logger } from "../../src/devnet/logger.ts";
import { DevnetNode } from "../../src/devnet/node.ts";
import { Ledger } from "../../src/ledger/index.ts";
import { client, signedTx, waitReceipt } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config: DevnetConfig = {
  ...DEFAULT_DEVNET_CONFIG,
  dataDir: dir,
  rpcPort: 0,
  blockTime: { kind: "on-demand" },
};

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const add = (_o: object, msg: string) => lines.push(msg);
  return { lines, info: add, warn: add, error: add, debug: add };
}

describe("devnet crash recovery", () => {
  it("rebuilds a state that got ahead of the ledger and continues the recorded chain", async () => {
    // a chain with a few blocks
    let node = await DevnetNode.open(config, { openState: openQmdbState });
    let c = client((await node.start()).http);
    const [a, b] = node.keys.accounts;
    if (a === undefined || b === undefined) throw new Error("dev accounts");
    for (let nonce = 0n; nonce < 3n; nonce++) {
      const { hex } = signedTx(a, {
        chainId: node.chainId,
        nonce,
        instruction: { kind: "transfer", to: b.address, amount: 100n + nonce },
      });
      await waitReceipt(c, await c.ok<string>("cowboy_sendRawTransaction", [hex]));
    }
    const head = await c.ok<{ number: string; hash: string }>("cowboy_getBlockByNumber", ["latest"]);
    const balanceB = await c.ok<string>("cowboy_getBalance", [toHex(b.address)]);
    await node.stop();

    // the crash window: state commits block N+1, the ledger never records it
    const ledger = await Ledger.open(join(dir, "ledger"));
    const record = await ledger.blockByHeight(BigInt(head.number));
    if (record === null) throw new Error("ledger head missing");
    await ledger.close();
    const genesis = readGenesisFile(dir);
    if (genesis === null) throw new Error("genesis.json missing");
    const state = openQmdbState(join(dir, "state"));
    const chain = state.createChain(genesis, decodeBlock(record.block).header);
    const orphan = chain.buildBlock([], {
      timestampMs: decodeBlock(record.block).header.timestampMs + 1n,
      proposer: new Uint8Array(20),
    });
    expect(orphan.block.header.height).toBe(BigInt(head.number) + 1n);
    state.close();

    // restart: the state is rebuilt from the ledger
    const logger = recordingLogger();
    node = await DevnetNode.open(config, { openState: openQmdbState, logger });
    expect(logger.lines.some((l) => l.includes("rebuilding it from the ledger"))).toBe(true);
    expect(logger.lines.some((l) => l.includes("re-executed ledger blocks"))).toBe(true);
    c = client((await node.start()).http);
    expect(await c.ok("cowboy_getBlockByNumber", ["latest"])).toMatchObject(head);
    expect(await c.ok("cowboy_getBalance", [toHex(b.address)])).toBe(balanceB);
    // the orphan block was never served and the chain goes on from the recorded head
    const { hex } = signedTx(a, {
      chainId: node.chainId,
      nonce: 3n,
      instruction: { kind: "transfer", to: b.address, amount: 1n },
    });
    const r = await waitReceipt(c, await c.ok<string>("cowboy_sendRawTransaction", [hex]));
    expect(BigInt(r.blockNumber as string)).toBe(BigInt(head.number) + 1n);
    expect(r.blockHash).not.toBe(toHex(orphan.hash));
    expect(BigInt(await c.ok<string>("cowboy_getBalance", [toHex(b.address)]))).toBe(BigInt(balanceB) + 1n);

    // state proofs from the real store verify against the block's state root
    const proof = await c.ok<Record<string, string>>("cowboy_getProof", [toHex(b.address)]);
    const latest = await c.ok<{ stateRoot: string }>("cowboy_getBlockByNumber", ["latest"]);
    expect(proof.stateRoot).toBe(latest.stateRoot);
    const { verifyStateProof, fromHex } = await import("@cowboy/sdk");
    const verified = verifyStateProof(
      fromHex(proof.stateRoot as string),
      fromHex(proof.key as string),
      fromHex(proof.proof as string),
    );
    expect(verified.exists).toBe(true);
    if (verified.exists) expect(toHex(verified.value)).toBe(proof.value);
    await node.stop();
  });

  it("refuses a data directory whose ledger does not match its genesis", async () => {
    const other = mkdtempSync(join(tmpdir(), "cowboy-devnet-mismatch-"));
    try {
      const n1 = await DevnetNode.open({ ...config, dataDir: other }, { openState: openQmdbState });
      await n1.stop();
      // a different genesis (another chain id) over the same ledger, with a fresh state
      rmSync(join(other, "state"), { recursive: true, force: true });
      rmSync(join(other, "genesis.json"));
      await expect(
        DevnetNode.open({ ...config, dataDir: other, chainId: 4242n }, { openState: openQmdbState }),
      ).rejects.toMatchObject({ code: "ERR_DEVNET_GENESIS_MISMATCH" });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses a data directory another devnet holds, even with --reset", async () => {
    const held = mkdtempSync(join(tmpdir(), "cowboy-devnet-held-"));
    const first = await DevnetNode.open({ ...config, dataDir: held }, { openState: openQmdbState });
    try {
      for (const reset of [false, true]) {
        await expect(
          DevnetNode.open({ ...config, dataDir: held, reset }, { openState: openQmdbState }),
        ).rejects.toMatchObject({ code: "ERR_DEVNET_DATA_DIR" });
      }
      expect(readGenesisFile(held)).not.toBeNull();
      expect(first.head().height).toBe(0n);
    } finally {
      await first.stop();
      rmSync(held, { recursive: true, force: true });
    }
  });
});
