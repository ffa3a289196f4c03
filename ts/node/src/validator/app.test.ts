/**
 * ChainApplication without a network: two validators' applications on their own stores,
 * driven by hand through the voter's calls — speculative execution, a proposal that loses its
 * view (state rebuilt from the finalized blocks), invalid blocks, finalizing a block that was
 * never verified, and a restart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Certificate,
  DkgCeremony,
  genesisDkg,
  loadNative,
  type Proposal,
  type Round,
} from "@cowboy/consensus";
import {
  addressFromSecretKey,
  blockHash,
  DEFAULT_TRANSFER_LIMITS,
  encodeTransaction,
  type Instruction,
  signTransaction,
  type TxLimits,
  transferTransaction,
  unsignedTransaction,
} from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { secretKey } from "../../test/stf-helpers.ts";
import { DEV_ACCOUNT_BALANCE, deriveDevKeys } from "../devnet/accounts.ts";
import { openChain } from "../stf/open.ts";
import type { GenesisConfig } from "../stf/types.ts";
import { ChainApplication, type FinalizedEntry } from "./app.ts";
import type { ConsensusBlock } from "./block.ts";
import type { CeremonyRecord } from "./dkg.ts";

const root = mkdtempSync(join(tmpdir(), "cowboy-chainapp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const [alice, bob] = deriveDevKeys(2).accounts;
if (alice === undefined || bob === undefined) throw new Error("no dev keys");
const genesis: GenesisConfig = {
  chainId: 99n,
  timestampMs: 1_000n,
  accounts: [{ address: alice.address, balance: DEV_ACCOUNT_BALANCE }],
};
const proposers = [new Uint8Array(20).fill(1), new Uint8Array(20).fill(2)];
const transfer = signTransaction(
  transferTransaction({ chainId: 99n, nonce: 0n, from: alice.address, to: bob.address, amount: 5n }),
  alice.secretKey,
);
/** `instruction` signed by the owner of `key` at nonce 0 of chain 99, encoded (the transfer row's limits unless `limits`). */
const signedBy = (key: Uint8Array, instruction: Instruction, limits: Partial<TxLimits> = {}): Uint8Array =>
  encodeTransaction(
    signTransaction(
      unsignedTransaction({
        chainId: 99n,
        nonce: 0n,
        instruction,
        from: addressFromSecretKey(key),
        limits: { ...DEFAULT_TRANSFER_LIMITS, ...limits },
      }),
      key,
    ),
  );

function open(name: string, i: number, pool: Uint8Array[] = []) {
  const finals: FinalizedEntry[] = [];
  const app = new ChainApplication(
    {
      dataDir: join(root, name),
      genesis,
      proposer: proposers[i] as Uint8Array,
      validators: proposers,
      verifyCertificate: null,
      candidates: () => pool,
      onFinalized: (e) => finals.push(e),
      now: () => 2_000,
    },
    Number.POSITIVE_INFINITY,
  );
  return { app, finals };
}
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const beacon = (v: number) => new Uint8Array(96).fill(v);
/** a well-formed certificate (these applications check none: verifyCertificate is null) */
const certOf = (p: Proposal): Certificate => ({
  kind: "finalize",
  round: p.round,
  proposal: p,
  signers: Uint8Array.of(0b11),
  signature: new Uint8Array(96).fill(8),
  seed: null,
});
const proposal = (round: Round, cb: ConsensusBlock, digest: string): Proposal => ({
  round,
  height: Number(cb.block.header.height),
  parentView: cb.parentView,
  parent: cb.parent,
  payload: digest,
});

describe("ChainApplication", () => {
  it("executes speculatively, rewinds when a proposal loses its view, finalizes one chain", () => {
    const a = open("a", 0, [encodeTransaction(transfer)]);
    const b = open("b", 1);
    expect(a.app.genesis).toBe(b.app.genesis);
    const g = { view: 0, digest: a.app.genesis, height: 0 };

    // view 1: A proposes (with the transfer), B verifies = executes it on its store
    const r1 = { epoch: 0, view: 1 };
    const p1 = a.app.propose(r1, g, beacon(1));
    if (p1 === null) throw new Error("no proposal");
    const cb1 = p1.block as ConsensusBlock;
    expect(cb1.block.transactions.length).toBe(1);
    expect(b.app.verify(proposal(r1, cb1, p1.digest), cb1, beacon(1))).toBe(true);
    expect(b.app.chain.head.height).toBe(1n);
    // wrong beacon, wrong round, tampered state root: refused
    expect(b.app.verify(proposal(r1, cb1, p1.digest), cb1, beacon(9))).toBe(false);
    expect(b.app.verify(proposal({ epoch: 0, view: 5 }, cb1, p1.digest), cb1, beacon(1))).toBe(false);

    // view 1 is nullified; view 2's leader (B) builds on genesis: its store must drop block 1
    const r2 = { epoch: 0, view: 2 };
    const p2 = b.app.propose(r2, g, beacon(2));
    if (p2 === null) throw new Error("no proposal");
    expect(b.app.rewinds).toBe(1); // block 1 dropped by a state rewind, not a rebuild
    expect(b.app.rebuilds).toBe(0);
    expect(b.app.chain.head.height).toBe(1n);
    const cb2 = p2.block as ConsensusBlock;
    expect(cb2.block.transactions.length).toBe(0); // B never saw the transfer
    const tampered: ConsensusBlock = {
      ...cb2,
      block: { ...cb2.block, header: { ...cb2.block.header, stateRoot: new Uint8Array(32).fill(7) } },
    };
    const pt = proposal(r2, tampered, a.app.digest(tampered));
    expect(a.app.verify(pt, tampered, beacon(2))).toBe(false);
    expect(a.app.verify(proposal(r2, cb2, p2.digest), cb2, beacon(2))).toBe(true);

    // view 2 finalizes on both; then view 3 (A, again with the transfer) on top of it
    a.app.finalized(proposal(r2, cb2, p2.digest), cb2, null);
    b.app.finalized(proposal(r2, cb2, p2.digest), cb2, null);
    const r3 = { epoch: 0, view: 3 };
    // above height 1 a block carries its parent's certificate: none known here, so no proposal
    expect(a.app.propose(r3, { view: 2, digest: p2.digest, height: 1 }, beacon(3))).toBeNull();
    const cert2 = certOf(proposal(r2, cb2, p2.digest));
    const p3 = a.app.propose(r3, { view: 2, digest: p2.digest, height: 1 }, beacon(3), cert2);
    if (p3 === null) throw new Error("no proposal");
    const cb3 = p3.block as ConsensusBlock;
    expect(cb3.block.transactions.length).toBe(1);
    expect(cb3.parentCertificate?.signers).toEqual(cert2.signers);
    // a follower refuses it without the certificate (the digest commits to it)
    const bare: ConsensusBlock = { block: cb3.block, parentView: cb3.parentView, parent: cb3.parent };
    expect(b.app.verify(proposal(r3, bare, b.app.digest(bare)), bare, beacon(3))).toBe(false);
    // B finalizes block 2 without ever verifying it (as if fetched)
    b.app.finalized(proposal(r3, cb3, p3.digest), cb3, null);
    a.app.finalized(proposal(r3, cb3, p3.digest), cb3, certOf(proposal(r3, cb3, p3.digest)));
    for (const x of [a, b]) {
      expect(x.app.tip()).toBe(2);
      expect(x.finals.map((e) => e.digest)).toEqual([p2.digest, p3.digest]);
      expect(x.app.chain.getAccount(bob.address)?.balance).toBe(5n);
    }
    expect(blockHash(a.app.chain.head)).toEqual(blockHash(b.app.chain.head));
    expect(a.app.finalizedTip()).toEqual({ view: 3, height: 2, digest: p3.digest });
    expect(b.app.at(1)?.block).toBeDefined();
    expect(b.app.finalizedBlock(p2.digest)).not.toBeNull();
    // a replayed finalization (after a restart) is ignored
    a.app.finalized(proposal(r2, cb2, p2.digest), cb2, null);
    expect(a.app.tip()).toBe(2);

    // restart B: same tip from finalized.log, no rebuild needed
    b.app.close();
    const b2 = open("b", 1);
    expect(b2.app.rebuilds).toBe(0);
    expect(b2.app.finalizedTip()).toEqual({ view: 3, height: 2, digest: p3.digest });
    expect(b2.app.chain.getAccount(bob.address)?.balance).toBe(5n);
    b2.app.close();

    // restart A with a speculative block on its store: rebuilt to the finalized tip
    const r4 = { epoch: 0, view: 4 };
    const p4 = a.app.propose(r4, { view: 3, digest: p3.digest, height: 2 }, beacon(4));
    if (p4 === null) throw new Error("no proposal");
    expect(a.app.chain.head.height).toBe(3n);
    a.app.close();
    const a2 = open("a", 0);
    const headPath = join(root, "a", "state", "head.bin");
    const staleHead = readFileSync(headPath); // block 2's header (the finalized tip here)
    expect(a2.app.rebuilds).toBe(1);
    expect(a2.app.chain.head.height).toBe(2n);
    // the proposal survives the restart (pending/): if it was notarized, the chain must extend it
    const cb4 = p4.block as ConsensusBlock;
    const kept = a2.app.pendingBlock(p4.digest);
    expect(kept === null ? null : a2.app.digest(kept)).toBe(p4.digest);
    expect(a2.app.pendingBlock(p3.digest)).toBeNull(); // final: not pending
    const p5 = a2.app.propose(
      { epoch: 0, view: 5 },
      { view: 4, digest: p4.digest, height: 3 },
      beacon(5),
      certOf(proposal(r4, cb4, p4.digest)),
    );
    expect(p5).not.toBeNull();
    expect(a2.app.chain.head.height).toBe(4n);
    a2.app.finalized(proposal(r4, cb4, p4.digest), cb4, null);
    expect(a2.app.pendingBlock(p4.digest)).toBeNull();
    expect(a2.app.pendingBlock((p5 as { digest: string }).digest)).not.toBeNull();
    a2.app.close();
    // a kill in the middle of a commit can leave head.bin and the store disagreeing: the
    // application rebuilds its (derived) state from finalized.log instead of refusing to start
    writeFileSync(headPath, staleHead); // block 2's header over the store of block 4
    expect(() => openChain(join(root, "a", "state"), genesis)).toThrowError(
      expect.objectContaining({ code: "ERR_CHAIN_HEAD" }),
    );
    const a3 = open("a", 0);
    expect(a3.app.tip()).toBe(3);
    expect(a3.app.chain.head.height).toBe(3n);
    expect(a3.app.chain.getAccount(bob.address)?.balance).toBe(5n);
    a3.app.close();
  });

  it("an epoch's first block (on view 0: the previous epoch's last block) carries no parent certificate", () => {
    const c = open("c", 0);
    const d = open("d", 1);
    const g = { view: 0, digest: c.app.genesis, height: 0 };
    const r1 = { epoch: 0, view: 1 };
    const p1 = c.app.propose(r1, g, beacon(1));
    if (p1 === null) throw new Error("no proposal");
    const cb1 = p1.block as ConsensusBlock;
    const fin1 = proposal(r1, cb1, p1.digest);
    for (const x of [c, d]) x.app.finalized(fin1, cb1, certOf(fin1));
    // epoch 1 starts at view 1 on view 0 = block 1, final; its certificate is not carried
    const e1 = { epoch: 1, view: 1 };
    const parent = { view: 0, digest: p1.digest, height: 1 };
    const pe = c.app.propose(e1, parent, beacon(6), certOf(fin1));
    if (pe === null) throw new Error("no proposal");
    const cbe = pe.block as ConsensusBlock;
    expect(cbe.parentCertificate ?? null).toBeNull();
    expect(d.app.verify(proposal(e1, cbe, pe.digest), cbe, beacon(6))).toBe(true);
    // one that carries a certificate anyway is refused
    const carrying: ConsensusBlock = {
      ...cbe,
      parentCertificate: {
        kind: "finalize",
        signers: Uint8Array.of(3),
        signature: new Uint8Array(96),
        seed: null,
      },
    };
    expect(d.app.verify(proposal(e1, carrying, d.app.digest(carrying)), carrying, beacon(6))).toBe(false);
    c.app.close();
    d.app.close();
  });

  it("reads a resharing ceremony at a finalized height while its store runs ahead of finality", () => {
    const x = loadNative();
    const secrets = [0, 1, 2, 3].map((i) => x.blsKeygen(Buffer.alloc(32, 40 + i)));
    const operators = [0, 1, 2, 3].map((i) => secretKey(500 + i));
    const dkg = genesisDkg(secrets, 99n);
    const withGroup: GenesisConfig = {
      chainId: 99n,
      timestampMs: 1_000n,
      accounts: operators.map((k) => ({ address: addressFromSecretKey(k), balance: DEV_ACCOUNT_BALANCE })),
      validators: secrets.map((sk, i) => ({
        address: addressFromSecretKey(operators[i] as Uint8Array),
        blsKey: x.blsPublicKey(sk),
        stake: 1_000n,
        proofOfPossession: x.blsProofOfPossession(sk, 99n),
      })),
      // F(0) = 4: the set of epoch 1 is frozen in block 4 and ceremony 1 opens there
      validatorParams: { minStake: 1_000n, epochBlocks: 8, downtimeWindow: 1_000, downtimeMaxMissed: 1_000 },
      dkgOutput: dkg.output,
    };
    // the set of epoch 1 loses a key: a resharing
    const exit = signedBy(operators[0] as Uint8Array, { kind: "exitValidator" });
    const pool = [exit];
    const app = new ChainApplication(
      {
        dataDir: join(root, "ceremony"),
        genesis: withGroup,
        proposer: proposers[0] as Uint8Array,
        validators: proposers,
        verifyCertificate: null,
        candidates: () => pool.splice(0),
        onFinalized: () => {},
        now: () => 2_000,
      },
      Number.POSITIVE_INFINITY,
    );
    // blocks 1..5 proposed (executed, speculative); 1..3 final
    let parent = { view: 0, digest: app.genesis, height: 0 };
    let cert: Certificate | null = null;
    const made: Array<{ p: Proposal; cb: ConsensusBlock }> = [];
    for (let view = 1; view <= 5; view++) {
      const round = { epoch: 0, view };
      const out = app.propose(round, parent, beacon(view), cert);
      if (out === null) throw new Error(`no proposal in view ${view}`);
      const cb = out.block as ConsensusBlock;
      const p = proposal(round, cb, out.digest);
      made.push({ p, cb });
      cert = certOf(p);
      parent = { view, digest: out.digest, height: view };
    }
    expect(made[0]?.cb.block.transactions.length).toBe(1);
    for (const { p, cb } of made.slice(0, 3)) app.finalized(p, cb, certOf(p));
    expect(app.tip()).toBe(3);
    expect(app.chain.head.height).toBe(5n);
    // the head state (block 5) holds ceremony 1; the finalized state (block 3) does not yet
    const atHead = app.chain.ceremony(1);
    expect(atHead?.firstHeight).toBe(4);
    expect(app.finalizedCeremony(1, 3)).toBeNull();
    expect(app.finalizedCeremony(1, 4)).toBeNull(); // not final here
    const m4 = made[3] as { p: Proposal; cb: ConsensusBlock };
    app.finalized(m4.p, m4.cb, certOf(m4.p));
    expect(app.finalizedCeremony(1, 4)).toEqual(atHead);
    expect(app.finalizedCeremony(1, 3)).toBeNull(); // an older finalized state: read at its version
    expect(app.finalizedCeremony(2, 4)).toBeNull();
    // a dealer log in a speculative block (6, on 5): on the head, not in any finalized state
    const rec = atHead as CeremonyRecord;
    const cer = new Map<string, DkgCeremony>();
    const queue: Array<() => void> = [];
    for (const [i, sk] of secrets.entries()) {
      const me = x.blsPublicKey(sk);
      if (!rec.players.some((p) => Buffer.from(p).equals(me))) continue; // the exiting one
      const dealer = i === 1;
      const c = new DkgCeremony(
        {
          chainId: 99n,
          round: 1n,
          previousOutput: rec.previousOutput,
          dealers: rec.dealers,
          players: rec.players,
          secretKey: sk,
          previousShare: dealer ? (dkg.shares.find((d) => d.publicKey.equals(me))?.share ?? null) : null,
          dealing: dealer,
        },
        {
          broadcast: (pub) => {
            for (const [k, o] of cer) if (k !== hex(me)) queue.push(() => o.onPublicMessage(me, pub));
          },
          sendDealing: (to, m) => queue.push(() => cer.get(hex(to))?.onDealing(me, m)),
          sendAck: (to, a) => queue.push(() => cer.get(hex(to))?.onAck(me, a)),
          publishLog: () => {},
          keepOwnDealing: () => true,
        },
      );
      cer.set(hex(me), c);
    }
    const dealerCeremony = cer.get(hex(x.blsPublicKey(secrets[1] as Buffer))) as DkgCeremony;
    dealerCeremony.start();
    while (queue.length > 0) (queue.shift() as () => void)();
    expect(dealerCeremony.allAcked).toBe(true);
    const log = dealerCeremony.closeDealing();
    pool.push(
      signedBy(
        operators[1] as Uint8Array,
        { kind: "dkgLog", ceremony: 1n, log },
        { cellsLimit: BigInt(log.length) },
      ),
    );
    const round6 = { epoch: 0, view: 6 };
    const out6 = app.propose(round6, parent, beacon(6), cert);
    if (out6 === null) throw new Error("no proposal in view 6");
    const cb6 = out6.block as ConsensusBlock;
    expect(cb6.block.transactions.length).toBe(1);
    expect(app.chain.ceremony(1)?.logs.map(hex)).toEqual([hex(log)]); // the head (6) has it
    expect(app.finalizedCeremony(1, 4)?.logs).toEqual([]);
    expect(app.finalizedCeremony(1, 5)).toBeNull(); // 5 is not final yet
    const m5 = made[4] as { p: Proposal; cb: ConsensusBlock };
    app.finalized(m5.p, m5.cb, certOf(m5.p));
    expect(app.finalizedCeremony(1, 5)?.logs).toEqual([]); // final, but the log is in 6
    const p6 = proposal(round6, cb6, out6.digest);
    app.finalized(p6, cb6, certOf(p6));
    expect(app.finalizedCeremony(1, 6)?.logs.map(hex)).toEqual([hex(log)]);
    expect(app.finalizedCeremony(1, 5)?.logs).toEqual([]); // read at block 5's version
    app.close();
  });
});
