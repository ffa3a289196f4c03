/**
 * `codec` benchmark suite (shared/BENCH.md): the native codec (`@cowboy/native`,
 * Rust `cowboy-codec` + libsecp256k1) against the pure-TypeScript twin
 * (`@cowboy/sdk` + @noble/curves), same corpus, same run. Each metric is
 * operations per second (one operation = one transaction); ratio = native / TS.
 *
 * Both sides produce the same output per operation:
 * - decode: bytes → the TxJson object with `signingHash` (native `txDecode`;
 *   TS `decodeWithSigningHash` + `toJson`).
 * - encode: TxJson → canonical bytes (native `txEncode`; TS `fromJson` + `encodeTransaction`).
 * - signing_hash: bytes → 32-byte hash (strict decode included on both sides).
 * - verify / recover: bytes → boolean / signer address; native uses the batch
 *   API (all cores), `*_single_*` the one-call-per-transaction API.
 */
import * as native from "@cowboy/native";
import {
  addressFromSecretKey,
  decodeWithSigningHash,
  encodeTransaction,
  fromJson,
  type Instruction,
  keccak256,
  recoverSignerOfBytes,
  signingHashOfBytes,
  signTransaction,
  type Transaction,
  type TxJson,
  toJson,
  utf8,
  verifyBytes,
} from "@cowboy/sdk";
import { compare, type Metric, opsPerSecond, type Sample } from "../lib/report.ts";

const CORPUS = 512;
const SLICE = 64;
const PEER = "@cowboy/sdk (TS, noble)";

/** Deterministic bytes for the corpus (keccak chain; no Math.random). */
function seeded(label: string, i: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let block = keccak256(utf8(`${label}/${i}`));
  for (let off = 0; off < n; off += 32) {
    out.set(block.subarray(0, Math.min(32, n - off)), off);
    block = keccak256(block);
  }
  return out;
}

/** A realistic mix: 60% transfers, 25% actor calls, 10% timers, 5% deploys. */
function instruction(i: number): Instruction {
  const k = i % 20;
  if (k < 12) return { kind: "transfer", to: seeded("to", i, 20), amount: BigInt(1 + i * 1_000_003) };
  if (k < 17) {
    return {
      kind: "call",
      to: seeded("to", i, 20),
      handler: "increment",
      args: seeded("args", i, 24),
      value: 0n,
    };
  }
  if (k < 19) {
    return {
      kind: "scheduleTimer",
      actor: seeded("actor", i, 20),
      fireAtHeight: BigInt(1_000 + i),
      handler: "tick",
      data: seeded("data", i, 16),
      interval: k === 18 ? 10n : null,
    };
  }
  const source = utf8(
    "class Counter:\n    def __init__(self):\n        self.count = 0\n\n    def increment(self, by=1):\n        self.count += by\n        return self.count\n",
  );
  return { kind: "deploy", source, salt: seeded("salt", i, 32), initArgs: new Uint8Array(0), value: 0n };
}

function corpus(): { bytes: Buffer[]; json: TxJson[] } {
  const bytes: Buffer[] = [];
  const json: TxJson[] = [];
  for (let i = 0; i < CORPUS; i++) {
    const key = seeded("key", i, 32);
    key[0] = 0x01; // nonzero and below the group order
    const tx: Transaction = {
      chainId: 42n,
      nonce: BigInt(i),
      instruction: instruction(i),
      cyclesLimit: 500_000n,
      cellsLimit: 50_000n,
      maxFeePerCycle: 20_000n,
      maxFeePerCell: 20_000n,
      maxPriorityFeePerCycle: 1_000n,
      maxPriorityFeePerCell: 1_000n,
      from: addressFromSecretKey(key),
      accessList: null,
      metadata: new Uint8Array(0),
      originTxHash: null,
      originRemainingCycles: null,
      originRemainingCells: null,
      signature: new Uint8Array(65),
      additionalSigners: [],
    };
    const signed = signTransaction(tx, key);
    const encoded = encodeTransaction(signed);
    bytes.push(Buffer.from(encoded));
    json.push(toJson(signed));
  }
  return { bytes, json };
}

/** Runs `fn` on rotating slices of `items`; one call = `SLICE` operations. */
function sliced<T>(items: readonly T[], fn: (item: T) => unknown): () => void {
  let at = 0;
  return () => {
    for (let i = 0; i < SLICE; i++) {
      fn(items[(at + i) % items.length] as T);
    }
    at = (at + SLICE) % items.length;
  };
}

function measure(fn: () => void, batch: number): Sample {
  return opsPerSecond(fn, { runs: 7, minMs: 400, batch });
}

export async function run(): Promise<Metric[]> {
  const { bytes, json } = corpus();
  // Sanity: both implementations agree on this corpus before anything is timed.
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as Buffer;
    if (!Buffer.from(native.txEncode(json[i] as TxJson)).equals(b))
      throw new Error(`codec bench: encodings differ at ${i}`);
    if (!native.txVerify(b) || !verifyBytes(b))
      throw new Error(`codec bench: signature ${i} does not verify`);
  }
  const metrics: Metric[] = [];
  const pair = (name: string, ours: Sample, theirs: Sample) => {
    metrics.push(compare(name, "1/s", true, ours, PEER, theirs));
  };

  pair(
    "decode_per_s",
    measure(
      sliced(bytes, (b) => native.txDecode(b)),
      SLICE,
    ),
    measure(
      sliced(bytes, (b) => {
        const d = decodeWithSigningHash(b);
        return toJson(d.tx, d.signingHash);
      }),
      SLICE,
    ),
  );
  pair(
    "encode_per_s",
    measure(
      sliced(json, (j) => native.txEncode(j)),
      SLICE,
    ),
    measure(
      sliced(json, (j) => encodeTransaction(fromJson(j))),
      SLICE,
    ),
  );
  pair(
    "signing_hash_per_s",
    measure(
      sliced(bytes, (b) => native.txSigningHash(b)),
      SLICE,
    ),
    measure(
      sliced(bytes, (b) => signingHashOfBytes(b)),
      SLICE,
    ),
  );
  const tsVerify = measure(
    sliced(bytes, (b) => verifyBytes(b)),
    SLICE,
  );
  const tsRecover = measure(
    sliced(bytes, (b) => recoverSignerOfBytes(b)),
    SLICE,
  );
  pair(
    "verify_per_s",
    measure(() => native.txVerifyBatch(bytes), bytes.length),
    tsVerify,
  );
  pair(
    "recover_per_s",
    measure(() => native.txRecoverBatch(bytes), bytes.length),
    tsRecover,
  );
  pair(
    "verify_single_per_s",
    measure(
      sliced(bytes, (b) => native.txVerify(b)),
      SLICE,
    ),
    tsVerify,
  );
  pair(
    "recover_single_per_s",
    measure(
      sliced(bytes, (b) => native.txRecoverSigner(b)),
      SLICE,
    ),
    tsRecover,
  );
  return metrics;
}
