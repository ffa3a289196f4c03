/**
 * A validator node's evidence handling without a network: gossiped evidence is decoded and
 * its BLS signatures checked against the chain's set before it is accepted (garbage and
 * forgeries are rejected, repeats ignored); accepted evidence is counted and — by the
 * validator after the offender — submitted as a `submitEvidence` transaction signed by the
 * operator account into the mempool.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BlsScheme,
  decodeEvidence,
  encodeEvidence,
  evidenceFromEquivocation,
  loadNative,
  type Proposal,
  type Vote,
} from "@cowboy/consensus";
import { decodeTransaction, fromHex, toHex } from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LOCALNET, planLocalnet } from "../localnet.ts";
import { readValidatorConfig, type ValidatorSettings } from "./config.ts";
import { freeUdpPortRange, waitFor } from "./localnet-harness.ts";
import { ValidatorNode } from "./node.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-evidence-"));
const native = loadNative();
let settings: ValidatorSettings[] = [];
let node: ValidatorNode;

beforeAll(async () => {
  // a dealer-dealt group: the test signs with the key files' shares by validator index
  const paths = await planLocalnet({
    ...DEFAULT_LOCALNET,
    validators: 4,
    dir,
    basePort: await freeUdpPortRange(4),
    rpcPort: 0,
    dkg: false,
  });
  settings = paths.map((p) => readValidatorConfig(p, (sk) => native.blsPublicKey(Buffer.from(sk))));
  node = await ValidatorNode.open({ ...(settings[0] as ValidatorSettings), logger: null });
});
afterAll(async () => {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Validator 3 signing two notarize votes for view 7. */
function doubleSign(signWith = 3): Uint8Array {
  const s = settings[3] as ValidatorSettings;
  const keyFile = JSON.parse(readFileSync(join(dir, `v${signWith}`, "validator.key"), "utf8")) as {
    blsSecretKey: string;
    blsShare: string;
  };
  const scheme = new BlsScheme({
    chainId: s.genesis.chainId,
    publicKeys: s.validators.map((v) => v.blsPublicKey),
    group: s.group,
    signer: { index: signWith, secretKey: fromHex(keyFile.blsSecretKey), share: fromHex(keyFile.blsShare) },
  });
  const round = { epoch: 0, view: 7 };
  const p = (payload: string): Proposal => ({
    round,
    height: 5,
    parentView: 6,
    parent: "aa".repeat(32),
    payload,
  });
  const vote = (payload: string): Vote => ({
    kind: "notarize",
    round,
    proposal: p(payload),
    signer: 3, // claimed signer
    signature: scheme.sign(signWith, "notarize", round, p(payload)),
  });
  const ev = evidenceFromEquivocation({
    signer: 3,
    vote: vote("bb".repeat(32)),
    conflicting: vote("cc".repeat(32)),
  });
  if (ev === null) throw new Error("no evidence");
  return encodeEvidence(ev);
}

describe("evidence on a validator node", () => {
  it("refuses garbage and forgeries, accepts valid evidence once, submits it from the operator account", async () => {
    expect(node.onEvidenceGossip(Uint8Array.of(1, 2, 3))).toBe("reject");
    // signed by validator 2's key but claiming validator 3: the signatures do not verify
    expect(node.onEvidenceGossip(doubleSign(2))).toBe("reject");
    expect(node.knownEvidence()).toHaveLength(0);

    const bytes = doubleSign();
    expect(node.onEvidenceGossip(bytes)).toBe("accept");
    expect(node.onEvidenceGossip(bytes)).toBe("ignore");
    expect(node.knownEvidence().map((e) => [e.signer, e.view])).toEqual([[3, 7]]);
    expect(node.metrics.equivocations.get()).toBe(1);

    // validator 0 is the first submitter for offender 3: a submitEvidence transaction from
    // its operator account lands in its mempool
    await waitFor("the evidence submission", () => node.metrics.evidenceSubmitted.get() >= 1, 30_000, 10);
    expect(node.metrics.evidenceSubmitted.get()).toBe(1);
    const operator = (settings[0] as ValidatorSettings).validators[0]?.address as Uint8Array;
    const pool = (node as unknown as { mempool: { ofSender(s: string): readonly { bytes: Uint8Array }[] } })
      .mempool;
    const pending = pool.ofSender(toHex(operator)).map((p) => decodeTransaction(p.bytes));
    const tx = pending.find((t) => t.instruction.kind === "submitEvidence");
    expect(Buffer.from(tx?.from ?? [])).toEqual(Buffer.from(operator));
    expect(tx?.instruction.kind === "submitEvidence" && decodeEvidence(tx.instruction.evidence).signer).toBe(
      3,
    );
  });
});
