/**
 * Writes python/tests/vectors/state-proofs.json: the state-proof vectors of the Rust crate
 * `cowboy-qmdb` (its `proof_vectors` example) plus tampered variants, each with the outcome
 * of the TypeScript verifier (ts/sdk/src/state-proof.ts). python/tests/test_state_proof.py
 * checks that the Python verifier gives exactly the same outcomes.
 *
 *   cargo run -q --release -p cowboy-qmdb --example proof_vectors > /tmp/rust-vectors.json
 *   node python/tests/vectors/gen_state_proofs.ts /tmp/rust-vectors.json > python/tests/vectors/state-proofs.json
 *
 * Outcomes: "value:<hex>" (inclusion), "absent" (exclusion) or "error:<CODE>".
 */
import { readFileSync } from "node:fs";
import { decodeStateProof, StateProofError, verifyStateProof } from "../../../ts/sdk/src/state-proof.ts";

interface Vector {
  name: string;
  root: string;
  key: string;
  proof: string;
  value: string | null;
}

const fromHex = (s: string) => Uint8Array.from(Buffer.from(s, "hex"));
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function outcome(root: Uint8Array, key: Uint8Array, proof: Uint8Array): string {
  try {
    const r = verifyStateProof(root, key, proof);
    return r.exists ? `value:${toHex(r.value)}` : "absent";
  } catch (e) {
    if (e instanceof StateProofError) return `error:${e.code}`;
    throw e;
  }
}

const vectors = (JSON.parse(readFileSync(process.argv[2] as string, "utf8")) as { vectors: Vector[] }).vectors;
for (const v of vectors) {
  const want = v.value === null ? "absent" : `value:${v.value}`;
  const got = outcome(fromHex(v.root), fromHex(v.key), fromHex(v.proof));
  if (got !== want) throw new Error(`${v.name}: TypeScript says ${got}, Rust says ${want}`);
}

interface Case {
  name: string;
  root: string;
  key: string;
  proof: string;
  outcome: string;
}
const cases: Case[] = [];
function add(name: string, root: Uint8Array, key: Uint8Array, proof: Uint8Array) {
  cases.push({ name, root: toHex(root), key: toHex(key), proof: toHex(proof), outcome: outcome(root, key, proof) });
}

for (const v of vectors) {
  const root = fromHex(v.root);
  const key = fromHex(v.key);
  const proof = fromHex(v.proof);
  add(`${v.name}: truncated by one byte`, root, key, proof.subarray(0, proof.length - 1));
  add(`${v.name}: one byte appended`, root, key, Uint8Array.from([...proof, 0]));
  const wrongRoot = root.slice();
  wrongRoot[7] = (wrongRoot[7] as number) ^ 0x10;
  add(`${v.name}: wrong root`, wrongRoot, key, proof);
  add(`${v.name}: empty key`, root, new Uint8Array(0), proof);
  add(`${v.name}: key of 1025 bytes`, root, new Uint8Array(1025).fill(0x03), proof);
  add(`${v.name}: root of 31 bytes`, root.subarray(0, 31), key, proof);
  const decoded = decodeStateProof(proof);
  const w = decoded.witness;
  if (w.kind === "op" && w.op.kind === "update") {
    add(`${v.name}: the witness's next key`, root, w.op.nextKey, proof);
    add(`${v.name}: the witness's own key`, root, w.op.key, proof);
    add(`${v.name}: just after the witness's key`, root, Uint8Array.from([...w.op.key, 0]), proof);
    // offsets of the fields after the peaks (docs/state.md "Proof bytes")
    const opStart = 8 + 4 + 32 * decoded.peaks.length + 1 + 8 + 4;
    const chunkStart = opStart + w.opBytes.length + 4 + 32 * w.mmrPath.length;
    const bit = Number(w.loc % 512n); // CHUNK_BITS
    const inactive = proof.slice();
    inactive[chunkStart + (bit >> 3)] = (inactive[chunkStart + (bit >> 3)] as number) ^ (1 << (bit & 7));
    add(`${v.name}: the operation's activity bit cleared`, root, key, inactive);
    const otherValue = proof.slice();
    otherValue[opStart + 1 + 4 + w.op.key.length + 4] = (otherValue[opStart + 1 + 4 + w.op.key.length + 4] as number) ^ 1;
    if (w.op.value.length > 0) add(`${v.name}: the value changed`, root, key, otherValue);
    const locBumped = proof.slice();
    locBumped[opStart - 12] = (locBumped[opStart - 12] as number) ^ 1;
    add(`${v.name}: location changed`, root, key, locBumped);
    const longerBitmapPath = Uint8Array.from([
      ...proof.subarray(0, chunkStart + 64), // the 64-byte chunk
      ...new Uint8Array([w.bitmapPath.length + 1, 0, 0, 0]),
      ...proof.subarray(chunkStart + 68),
      ...new Uint8Array(32),
    ]);
    add(`${v.name}: one more bitmap path hash`, root, key, longerBitmapPath);
  }
}

// deterministic junk (xorshift32), which must be rejected as malformed
let x = 0x9e3779b9;
const next = () => {
  x ^= x << 13;
  x >>>= 0;
  x ^= x >>> 17;
  x ^= x << 5;
  x >>>= 0;
  return x;
};
const base = vectors[5] as Vector;
for (let i = 0; i < 40; i++) {
  const junk = new Uint8Array((i * 37) % 300);
  for (let j = 0; j < junk.length; j++) junk[j] = next() & 0xff;
  add(`junk ${i}`, fromHex(base.root), fromHex(base.key), junk);
}

// every byte of every vector with one bit flipped: outcomes run-length encoded
const flips = [];
for (let vi = 0; vi < vectors.length; vi++) {
  const v = vectors[vi] as Vector;
  const proof = fromHex(v.proof);
  for (const bit of [0, 3, 7]) {
    const runs: Array<[string, number]> = [];
    for (let i = 0; i < proof.length; i++) {
      const bad = proof.slice();
      bad[i] = (bad[i] as number) ^ (1 << bit);
      const o = outcome(fromHex(v.root), fromHex(v.key), bad);
      const last = runs.at(-1);
      if (last !== undefined && last[0] === o) last[1]++;
      else runs.push([o, 1]);
    }
    flips.push({ vector: vi, bit, runs });
  }
}

process.stdout.write(
  `${JSON.stringify(
    {
      comment:
        "State-proof vectors: `vectors` from Rust (cargo run -p cowboy-qmdb --example proof_vectors), `cases` and `flips` with the outcomes of the TypeScript verifier; regenerate with python/tests/vectors/gen_state_proofs.ts",
      vectors,
      cases,
      flips,
    },
    null,
    1,
  )}\n`,
);
