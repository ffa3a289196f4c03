/**
 * `bls` suite (shared/BENCH.md): native BLS12-381 (`@cowboy/native`, blst via
 * commonware) against `@noble/curves` (pure JS) in the same run.
 *
 * Metrics: verify_per_s, cert_verify_{4,10,50,100}_us, batch_verify_1000_ms,
 * recover_100_67_ms (+ sign_per_s, batch_verify_1000_key_bytes_ms). All native
 * figures go through the addon with bytes in, so they include decoding and
 * subgroup checks. The noble peer uses the same bytes: the
 * same ciphersuite, the same namespaced messages, so both sides verify each
 * other's signatures (checked before timing).
 */
import { randomBytes } from "node:crypto";
import * as native from "@cowboy/native";
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { compare, type Metric, opsPerSecond, type Sample, summarize } from "../lib/report.ts";

const bls = bls12_381.longSignatures;
const DST = "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
const CHAIN = 1n;
const R = bls12_381.fields.Fr.ORDER;

function varint(v: number | bigint): Buffer {
  let n = BigInt(v);
  const out: number[] = [];
  do {
    let b = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) b |= 0x80;
    out.push(b);
  } while (n > 0n);
  return Buffer.from(out);
}

/** commonware's union_unique: varint(len(ns)) ‖ ns ‖ msg. */
function signed(ns: Buffer, msg: Buffer): Buffer {
  return Buffer.concat([varint(ns.length), ns, msg]);
}

/** Milliseconds per call of `op`, `runs` runs of at least `minMs` each. */
function msPerOp(op: () => unknown, runs: number, minMs: number, warmup = true): Sample {
  if (warmup) op();
  const values: number[] = [];
  for (let r = 0; r < runs; r++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (calls === 0 || elapsed < BigInt(minMs * 1e6)) {
      op();
      calls++;
      elapsed = process.hrtime.bigint() - start;
    }
    values.push(Number(elapsed) / 1e6 / calls);
  }
  return summarize(values);
}

async function msPerAsync(op: () => Promise<unknown>, runs: number): Promise<Sample> {
  await op();
  const values: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    await op();
    values.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summarize(values);
}

const us = (s: Sample): Sample => ({ ...s, median: s.median * 1000 });

/** Lagrange coefficient at 0 for evaluation point x_i over the set xs (mod r). */
function lagrange(xi: bigint, xs: bigint[]): bigint {
  const Fr = bls12_381.fields.Fr;
  let num = 1n;
  let den = 1n;
  for (const xj of xs) {
    if (xj === xi) continue;
    num = Fr.mul(num, xj);
    den = Fr.mul(den, Fr.sub(xj, xi));
  }
  return Fr.div(num, den);
}

export async function run(): Promise<Metric[]> {
  const metrics: Metric[] = [];
  const ns = native.blsNamespace("finalize", CHAIN);
  const msg = native.blsVoteMessage(Buffer.alloc(32, 0xab), 1000n, 0n, 1000n);
  const hashed = () => bls.hash(signed(ns, msg), DST);

  const n = 1000;
  const sks = Array.from({ length: n }, () => native.blsKeygen(randomBytes(32)));
  const pks = sks.map((sk) => native.blsPublicKey(sk));
  const sigs = sks.map((sk) => native.blsSign(sk, "finalize", CHAIN, msg));

  // Same bytes on both sides.
  const nobleSig = bls.sign(hashed(), sks[0] as Buffer).toBytes();
  if (Buffer.compare(Buffer.from(nobleSig), sigs[0] as Buffer) !== 0)
    throw new Error("noble/native signature mismatch");
  if (!bls.verify(sigs[0] as Buffer, hashed(), pks[0] as Buffer))
    throw new Error("noble rejects native signature");

  // sign
  const signOurs = opsPerSecond(() => native.blsSign(sks[0] as Buffer, "finalize", CHAIN, msg), {
    runs: 5,
    minMs: 300,
  });
  const signPeer = opsPerSecond(() => bls.sign(hashed(), sks[0] as Buffer).toBytes(), {
    runs: 5,
    minMs: 300,
  });
  metrics.push(compare("sign_per_s", "1/s", true, signOurs, "noble-js", signPeer));

  // verify (bytes in, all checks included)
  const vOurs = opsPerSecond(
    () => native.blsVerify(pks[0] as Buffer, "finalize", CHAIN, msg, sigs[0] as Buffer),
    {
      runs: 5,
      minMs: 300,
    },
  );
  const vPeer = opsPerSecond(() => bls.verify(sigs[0] as Buffer, hashed(), pks[0] as Buffer), {
    runs: 5,
    minMs: 300,
  });
  metrics.push(compare("verify_per_s", "1/s", true, vOurs, "noble-js", vPeer));

  // certificates of 4, 10, 50, 100 signers (every validator signs)
  for (const size of [4, 10, 50, 100]) {
    const set = new native.BlsValidatorSet(pks.slice(0, size));
    const cert = set.assemble(
      Array.from({ length: size }, (_, i) => i),
      sigs.slice(0, size),
    );
    const points = pks.slice(0, size).map((k) => bls12_381.G1.Point.fromBytes(k));
    const ours = msPerOp(
      () => set.verifyCertificate("finalize", CHAIN, msg, cert.bitmap, cert.signature),
      5,
      300,
    );
    const peer = msPerOp(
      () => {
        const agg = bls.aggregatePublicKeys(points);
        if (!bls.verify(cert.signature, hashed(), agg)) throw new Error("noble rejects certificate");
      },
      5,
      300,
    );
    metrics.push(compare(`cert_verify_${size}_us`, "us", false, us(ours), "noble-js", us(peer)));
  }

  // batch-verify 1,000 votes over the block's message (off the JS thread):
  // votes of known validators (keys decoded once per epoch in the set), and
  // arbitrary (key bytes, message, signature) items.
  const all = new native.BlsValidatorSet(pks);
  const indices = Array.from({ length: n }, (_, i) => i);
  const batchOurs = await msPerAsync(async () => {
    const bad = await all.verifyVotesAsync("finalize", CHAIN, msg, indices, sigs);
    if (bad.length !== 0) throw new Error("batch rejected");
  }, 5);
  const items = pks.map((publicKey, i) => ({
    publicKey,
    domain: "finalize",
    chainId: CHAIN,
    message: msg,
    signature: sigs[i] as Buffer,
  }));
  const bytesOurs = await msPerAsync(async () => {
    const bad = await native.blsBatchVerifyAsync(items);
    if (bad.length !== 0) throw new Error("batch rejected");
  }, 5);
  // noble has no randomized batch verification: its peer checks each vote
  // (keys pre-decoded, signatures from bytes).
  const keyPoints = pks.map((k) => bls12_381.G1.Point.fromBytes(k));
  const batchPeer = msPerOp(
    () => {
      const h = hashed();
      for (let i = 0; i < n; i++)
        if (!bls.verify(sigs[i] as Buffer, h, keyPoints[i] as (typeof keyPoints)[number]))
          throw new Error("bad vote");
    },
    2,
    0,
    false,
  );
  metrics.push(compare("batch_verify_1000_ms", "ms", false, batchOurs, "noble-js", batchPeer));
  metrics.push(compare("batch_verify_1000_key_bytes_ms", "ms", false, bytesOurs, "noble-js", batchPeer));

  // threshold recovery n=100, t=67
  const dealing = native.blsThresholdDeal(randomBytes(32), 100);
  const group = new native.BlsGroup(dealing.group);
  const partials = dealing.shares.map((s) => native.blsPartialSign(s, "seed", CHAIN, msg));
  const chosen = partials.slice(0, 67);
  const recOurs = msPerOp(() => group.recover(chosen), 5, 300);
  // peer: Lagrange interpolation at 0 over the same partials with noble's G2
  // (partial bytes: varint index ‖ 96-byte signature; x = index + 1).
  const parsed = chosen.map((p) => {
    let i = 0;
    let idx = 0n;
    let shift = 0n;
    for (;;) {
      const b = p[i++] as number;
      idx |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) break;
    }
    return { x: idx + 1n, sig: p.subarray(i) };
  });
  const xs = parsed.map((p) => p.x);
  const expected = group.recover(chosen);
  const recPeer = msPerOp(
    () => {
      let acc = bls12_381.G2.Point.ZERO;
      for (const p of parsed)
        acc = acc.add(bls12_381.G2.Point.fromBytes(p.sig).multiply(lagrange(p.x, xs) % R));
      if (Buffer.compare(Buffer.from(acc.toBytes()), expected) !== 0)
        throw new Error("noble recovery mismatch");
    },
    3,
    0,
  );
  metrics.push(compare("recover_100_67_ms", "ms", false, recOurs, "noble-js", recPeer));
  return metrics;
}
