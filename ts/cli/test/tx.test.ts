/** `cowboy tx …` end to end: the real CLI in a child process, on spec Appendix A and on bad input. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "cowboy.js");
const VECTOR_1 =
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";
const VECTOR_2 =
  "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa7d34657002746f30ce22cadc141bceea3129610de3035b0100";
const FROM = "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a";
const KEY = `0x${"11".repeat(32)}`;
const TRANSFER_JSON = JSON.stringify({
  chainId: "42",
  nonce: "0",
  instruction: { kind: "transfer", to: `0x${"22".repeat(20)}`, amount: "1" },
  cyclesLimit: "50000",
  cellsLimit: "50000",
  maxFeePerCycle: "1",
  maxFeePerCell: "1",
  maxPriorityFeePerCycle: "0",
  maxPriorityFeePerCell: "0",
  from: FROM,
});

function cowboy(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", input });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("cowboy tx encode", () => {
  it("encodes JSON (inline, @file, stdin) to Vector 1", () => {
    expect(cowboy(["tx", "encode", TRANSFER_JSON])).toEqual({ code: 0, stdout: `${VECTOR_1}\n`, stderr: "" });
    const dir = mkdtempSync(join(tmpdir(), "cowboy-tx-"));
    const file = join(dir, "tx.json");
    writeFileSync(file, TRANSFER_JSON);
    expect(cowboy(["tx", "encode", `@${file}`]).stdout).toBe(`${VECTOR_1}\n`);
    expect(cowboy(["tx", "encode", "-"], TRANSFER_JSON).stdout).toBe(`${VECTOR_1}\n`);
  });

  it("rejects bad JSON with the violated rule", () => {
    const bad = JSON.stringify({ ...JSON.parse(TRANSFER_JSON), nonce: "01" });
    const r = cowboy(["tx", "encode", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "cowboy: ERR_TX_JSON_FIELD: nonce: expected a decimal u64 string (0..=18446744073709551615, no sign, no leading zeros)\n",
    );
    const badHandler = JSON.stringify({
      ...JSON.parse(TRANSFER_JSON),
      instruction: { kind: "call", to: FROM, handler: "no-dash", args: "0x", value: "0" },
    });
    expect(cowboy(["tx", "encode", badHandler]).stderr).toBe(
      "cowboy: ERR_CODEC_INVALID_HANDLER: instruction.handler: handler must be a 1..=64 byte ASCII identifier [A-Za-z_][A-Za-z0-9_]*\n",
    );
    expect(cowboy(["tx", "encode", "@/nonexistent/tx.json"]).stderr).toMatch(
      /^cowboy: ERR_FILE: cannot read/,
    );
  });
});

describe("cowboy tx with the validator-set System instructions", () => {
  it("encodes, decodes and signs registerValidator and sysCancelTimer JSON", () => {
    const register = {
      kind: "registerValidator",
      blsKey: `0x${"77".repeat(48)}`,
      proofOfPossession: `0x${"88".repeat(96)}`,
      stake: "10000",
    };
    const json = JSON.stringify({ ...JSON.parse(TRANSFER_JSON), instruction: register });
    const r = cowboy(["tx", "encode", json]);
    expect(r.code).toBe(0);
    // chain id, nonce, then the instruction bytes of docs/codec.md §3
    expect(r.stdout.startsWith(`2a000002${"77".repeat(48)}${"88".repeat(96)}0000000000002710`)).toBe(true);
    expect(JSON.parse(cowboy(["tx", "decode", r.stdout.trim()]).stdout).instruction).toEqual(register);
    const signed = JSON.parse(cowboy(["tx", "sign", "--json", "--key", KEY, json]).stdout);
    expect(signed.instruction).toEqual(register);
    const cancel = {
      kind: "sysCancelTimer",
      actor: `0x${"55".repeat(20)}`,
      timerId: `0x${"66".repeat(32)}`,
      epoch: "300",
      signers: "0x07",
      signature: `0x${"99".repeat(96)}`,
    };
    const c = cowboy(["tx", "encode", JSON.stringify({ ...JSON.parse(TRANSFER_JSON), instruction: cancel })]);
    expect(
      c.stdout.startsWith(`2a000007${"55".repeat(20)}${"66".repeat(32)}ac020107${"99".repeat(96)}`),
    ).toBe(true);
    const exit = cowboy([
      "tx",
      "encode",
      JSON.stringify({ ...JSON.parse(TRANSFER_JSON), instruction: { kind: "exitValidator" } }),
    ]);
    expect(exit.stdout.startsWith("2a000003d08603")).toBe(true);
    const bad = cowboy([
      "tx",
      "encode",
      JSON.stringify({ ...JSON.parse(TRANSFER_JSON), instruction: { ...register, blsKey: "0x77" } }),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^cowboy: ERR_TX_JSON_FIELD: instruction\.blsKey: /);
  });
});

describe("cowboy tx decode", () => {
  it("decodes Vector 2 with signingHash, signer and verification", () => {
    const r = cowboy(["tx", "decode", VECTOR_2]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.signingHash).toBe("0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a");
    expect(out.signer).toBe(FROM);
    expect(out.verified).toBe(true);
    expect(out.instruction).toEqual({ kind: "transfer", to: `0x${"22".repeat(20)}`, amount: "1" });
    expect(r.stdout).toBe(`${JSON.stringify(out, null, 2)}\n`); // pretty printed
  });

  it("decodes Vector 1 with a null signer and a note", () => {
    const out = JSON.parse(cowboy(["tx", "decode", `0x${VECTOR_1}`]).stdout);
    expect(out.signer).toBeNull();
    expect(out.verified).toBe(false);
    expect(out.note).toMatch(/all zero/);
  });

  it("explains an unsigned system-injected deferred transaction", () => {
    const deferred = JSON.stringify({
      ...JSON.parse(TRANSFER_JSON),
      originTxHash: `0x${"ab".repeat(32)}`,
      originRemainingCycles: "1000",
      originRemainingCells: "10",
    });
    const hex = cowboy(["tx", "encode", deferred]).stdout.trim();
    const out = JSON.parse(cowboy(["tx", "decode", hex]).stdout);
    expect(out.originRemainingCycles).toBe("1000");
    expect(out.signer).toBeNull();
    expect(out.note).toMatch(/^system-injected deferred transaction/);
  });

  it("reports a signature that recovers to someone else", () => {
    // Vector 2 with nonce 1: the signature now recovers to an unrelated address.
    const out = JSON.parse(cowboy(["tx", "decode", `2a01${VECTOR_2.slice(4)}`]).stdout);
    expect(out.signer).toMatch(/^0x[0-9a-f]{40}$/);
    expect(out.signer).not.toBe(FROM);
    expect(out.verified).toBe(false);
    expect(out.note).toMatch(/^ERR_SIG_SIGNER_MISMATCH: /);
  });

  it("rejects non-canonical encodings naming the rule, exit 1", () => {
    const cases: Array<[string, string]> = [
      [
        `2a8000${VECTOR_2.slice(4)}`,
        "cowboy: ERR_CODEC_NON_MINIMAL_VARINT: nonce: non-minimal varint (redundant zero group)\n",
      ],
      [`${VECTOR_2}00`, "cowboy: ERR_CODEC_TRAILING_BYTES: transaction: 1 trailing bytes after the value\n"],
      [VECTOR_2.slice(0, 40), "cowboy: ERR_CODEC_UNEXPECTED_EOF: instruction.to: unexpected end of input\n"],
      [
        `2a0004${VECTOR_2.slice(6)}`,
        "cowboy: ERR_CODEC_UNKNOWN_CATEGORY: instruction.category: unknown category 4\n",
      ],
      [
        "xyz",
        "cowboy: ERR_INVALID_HEX: transaction: expected hex digits (an optional 0x prefix, an even count)\n",
      ],
    ];
    for (const [hex, stderr] of cases) {
      expect(cowboy(["tx", "decode", hex])).toEqual({ code: 1, stdout: "", stderr });
    }
  });
});

describe("cowboy tx sign / hash", () => {
  it("signs JSON or hex into Vector 2", () => {
    expect(cowboy(["tx", "sign", "--key", KEY, TRANSFER_JSON]).stdout).toBe(`${VECTOR_2}\n`);
    expect(cowboy(["tx", "sign", "--key", KEY, VECTOR_1]).stdout).toBe(`${VECTOR_2}\n`);
    const json = JSON.parse(cowboy(["tx", "sign", "--json", "--key", KEY, VECTOR_1]).stdout);
    expect(json.signature.endsWith("01")).toBe(true);
  });

  it("co-signs with --additional (the listed signer's entry only)", () => {
    const coKey = `0x${"33".repeat(32)}`;
    // The address of key 0x33…33, found through the CLI itself: sign as it and read the error.
    const probe = cowboy(["tx", "sign", "--key", coKey, VECTOR_1]);
    const coAddress = /address (0x[0-9a-f]{40})/.exec(probe.stderr)?.[1] as string;
    expect(coAddress).toMatch(/^0x[0-9a-f]{40}$/);
    const withSigner = JSON.stringify({
      ...JSON.parse(TRANSFER_JSON),
      additionalSigners: [{ address: coAddress, signature: `0x${"00".repeat(65)}` }],
    });
    const coSigned = cowboy(["tx", "sign", "--additional", "--key", coKey, withSigner]).stdout.trim();
    const fullySigned = cowboy(["tx", "sign", "--key", KEY, coSigned]).stdout.trim();
    const out = JSON.parse(cowboy(["tx", "decode", fullySigned]).stdout);
    expect(out.verified).toBe(true);
    expect(out.additionalSigners[0].address).toBe(coAddress);
    expect(cowboy(["tx", "sign", "--additional", "--key", KEY, withSigner]).stderr).toMatch(
      /^cowboy: ERR_SIG_NOT_A_SIGNER: /,
    );
  });

  it("refuses a key that is not from", () => {
    const r = cowboy(["tx", "sign", "--key", `0x${"22".repeat(32)}`, VECTOR_1]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cowboy: ERR_SIG_FROM_MISMATCH: from: the signing key's address 0x[0-9a-f]{40} is not/,
    );
  });

  it("prints the signing hash", () => {
    expect(cowboy(["tx", "hash", VECTOR_2]).stdout).toBe(
      "0x203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a\n",
    );
  });
});
