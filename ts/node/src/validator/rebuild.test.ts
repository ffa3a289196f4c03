/**
 * A validator node that has to rebuild its state store from its finalized blocks (a crash with
 * a speculative block applied, a lost `state/`) must re-execute them exactly as they were
 * executed live. On a chain with a group per epoch, a block's `participants` (its parent
 * certificate's signers, for downtime accounting: part of the state) are consensus indices of
 * that epoch's set; the node must treat them so while its application re-executes the blocks
 * in its constructor, not only once it runs. The chain here: a DKG localnet of 4 whose first
 * validator exits, a resharing among the other three that succeeds (so the set of epoch 1
 * differs from the network file's order), and blocks of epoch 1 certified by that set.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Certificate,
  DkgCeremony,
  type DkgTransport,
  loadNative,
  type Proposal,
} from "@cowboy/consensus";
import {
  addressFromSecretKey,
  encodeTransaction,
  type Instruction,
  signTransaction,
  zeroSignature,
} from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LOCALNET, planLocalnet } from "../localnet.ts";
import { ChainApplication } from "./app.ts";
import type { ConsensusBlock } from "./block.ts";
import { readValidatorConfig, type ValidatorSettings } from "./config.ts";
import { ValidatorNode } from "./node.ts";

const x = loadNative();
const dir = mkdtempSync(join(tmpdir(), "cowboy-rebuild-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const E = 8; // F(0) = 4: ceremony 1 takes logs in blocks 4..7

function tx(s: ValidatorSettings, nonce: bigint, instruction: Instruction, cells: bigint): Uint8Array {
  return encodeTransaction(
    signTransaction(
      {
        chainId: s.genesis.chainId,
        nonce,
        instruction,
        cyclesLimit: 200_000n,
        cellsLimit: cells,
        maxFeePerCycle: 20_000n,
        maxFeePerCell: 20_000n,
        maxPriorityFeePerCycle: 0n,
        maxPriorityFeePerCell: 0n,
        from: addressFromSecretKey(s.operatorSecretKey),
        accessList: null,
        metadata: new Uint8Array(0),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: zeroSignature(),
        additionalSigners: [],
      },
      s.operatorSecretKey,
    ),
  );
}

/** The signed dealer logs of ceremony `n` (every dealer deals, every player acknowledges). */
function dealerLogs(settings: ValidatorSettings[], n: number, players: Buffer[]): Buffer[] {
  const dealers = settings.map((s) => Buffer.from(s.identity.blsPublicKey));
  const byKey = new Map<string, DkgCeremony>();
  const inbox: Array<() => void> = [];
  const at = (k: Uint8Array) => byKey.get(Buffer.from(k).toString("hex")) as DkgCeremony;
  for (const s of settings) {
    const me = Buffer.from(s.identity.blsPublicKey);
    const transport: DkgTransport = {
      broadcast: (m) => {
        for (const p of players) if (!p.equals(me)) inbox.push(() => at(p).onPublicMessage(me, m));
      },
      sendDealing: (p, m) => inbox.push(() => at(p).onDealing(me, m)),
      sendAck: (d, a) => inbox.push(() => at(d).onAck(me, a)),
      publishLog: () => {},
    };
    byKey.set(
      me.toString("hex"),
      new DkgCeremony(
        {
          chainId: s.genesis.chainId,
          round: BigInt(n),
          previousOutput: s.dkgOutput,
          dealers,
          players,
          secretKey: s.signer.secretKey,
          previousShare: s.signer.share,
        },
        transport,
      ),
    );
  }
  for (const c of byKey.values()) c.start();
  while (inbox.length > 0) (inbox.shift() as () => void)();
  return [...byKey.values()].map((c) => c.closeDealing());
}

describe("rebuilding the state of a chain with a set per epoch", () => {
  it("re-executes the blocks of a resharing after an exit to the same roots (participants are the epoch set's indices)", async () => {
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      validators: 4,
      dir,
      rpcPort: 0,
      epochBlocks: E,
    });
    const settings = paths.map((p) => readValidatorConfig(p, (sk) => x.blsPublicKey(Buffer.from(sk))));
    const s0 = settings[0] as ValidatorSettings;
    // a node opened once (its ledger holds the genesis), then its chain is made by hand
    await (await ValidatorNode.open({ ...s0, logger: null })).stop();
    const pool: Uint8Array[] = [];
    const app = new ChainApplication(
      {
        dataDir: s0.dataDir,
        genesis: s0.genesis,
        proposer: s0.identity.address,
        validators: s0.validators.map((v) => v.address),
        verifyCertificate: null,
        epochSets: () => true,
        candidates: () => pool.splice(0),
        onFinalized: () => {},
      },
      Number.POSITIVE_INFINITY,
    );
    // validator 0 (the lowest address) exits in block 1: the set of epoch 1 is validators 1..3,
    // whose consensus indices 0..2 are not their network-file positions 1..3
    pool.push(tx(s0, 0n, { kind: "exitValidator" }, 0n));
    let parent = { view: 0, digest: app.genesis, height: 0 };
    let cert: Certificate | null = null;
    const next = (epoch: number, view: number, signers: number): void => {
      const round = { epoch, view };
      const out = app.propose(round, parent, new Uint8Array(96).fill(view), cert);
      if (out === null) throw new Error(`no block in epoch ${epoch} view ${view}`);
      const cb = out.block as ConsensusBlock;
      const p: Proposal = {
        round,
        height: Number(cb.block.header.height),
        parentView: cb.parentView,
        parent: cb.parent,
        payload: out.digest,
      };
      cert = {
        kind: "finalize",
        round,
        proposal: p,
        signers: Uint8Array.of(signers),
        signature: new Uint8Array(96),
        seed: null,
      };
      app.finalized(p, cb, cert);
      parent = { view, digest: out.digest, height: p.height };
    };
    for (let view = 1; view <= 4; view++) next(0, view, 0b1111);
    const ceremony = app.chain.ceremony(1);
    expect(ceremony?.players.length).toBe(3);
    // every dealer's log goes on chain in block 5 (each from its own operator account)
    const logs = dealerLogs(
      settings,
      1,
      (ceremony?.players ?? []).map((p) => Buffer.from(p)),
    );
    settings.forEach((s, i) => {
      const log = logs[i] as Buffer;
      const nonce = i === 0 ? 1n : 0n;
      pool.push(tx(s, nonce, { kind: "dkgLog", ceremony: 1n, log }, BigInt(log.length) + 1_024n));
    });
    for (let view = 5; view <= 7; view++) next(0, view, 0b1111);
    expect(app.chain.epochGroup(1)?.ceremony).toBe(1); // the resharing succeeded
    expect(app.chain.validatorSet(1).length).toBe(3);
    // epoch 1: views restart at 1 on view 0 = block 7; certified by all three of its members
    parent = { ...parent, view: 0 };
    for (let view = 1; view <= 4; view++) next(1, view, 0b111);
    const tip = app.tip();
    const root = Buffer.from(app.chain.head.stateRoot).toString("hex");
    app.close();
    // the state store is lost (and the ledger behind): the node re-executes the finalized
    // blocks when it opens
    rmSync(join(s0.dataDir, "state"), { recursive: true, force: true });
    const node = await ValidatorNode.open({ ...s0, logger: null });
    try {
      expect(node.app.tip()).toBe(tip);
      expect(Buffer.from(node.app.chain.head.stateRoot).toString("hex")).toBe(root);
    } finally {
      await node.stop();
    }
  });
});
