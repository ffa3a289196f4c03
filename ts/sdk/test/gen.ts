/**
 * Seeded random transactions for property tests (shared by the pure-TS and the
 * cross-implementation tests). Deterministic: the same seed gives the same
 * sequence on every run.
 */
import { Sfc32 } from "@cowboy/collections";
import {
  type Block,
  type BlockHeader,
  CERTIFICATE_KINDS,
  type Certificate,
  compareBytes,
  type Instruction,
  RECEIPT_STATUSES,
  type Receipt,
  type Transaction,
  utf8,
} from "../src/index.ts";

/** Test-data generator over the shared seeded PRNG. */
export class Rng extends Sfc32 {
  bool(p = 0.5): boolean {
    return this.fraction() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }

  /** A u64 biased toward the edges of the varint / u64 encodings. */
  u64(): bigint {
    switch (this.below(6)) {
      case 0:
        return BigInt(this.below(128));
      case 1:
        return this.pick([
          0n,
          1n,
          127n,
          128n,
          16383n,
          16384n,
          2n ** 32n - 1n,
          2n ** 53n,
          2n ** 63n,
          2n ** 64n - 1n,
        ]);
      case 2:
        return BigInt(this.u32());
      default: {
        const bits = BigInt(1 + this.below(64));
        const v = (BigInt(this.u32()) << 32n) | BigInt(this.u32());
        return v & ((1n << bits) - 1n);
      }
    }
  }

  /** Byte string with a length biased to short (occasionally crossing the 1-byte length prefix). */
  blob(max = 200): Uint8Array {
    return this.bytes(this.bool(0.2) ? 0 : this.below(max));
  }
}

const IDENT_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
const IDENT_REST = `${IDENT_START}0123456789`;
const LIB_START = "abcdefghijklmnopqrstuvwxyz_";
const LIB_REST = `${LIB_START}0123456789`;
const SOURCE_PIECES = [
  "x = 1\n",
  "def f(a, b):\n    return a + b\n",
  "# café, 日本, ü\n",
  "s = 'ÅΩ'\n",
  "\n",
  "pass\n",
];

function word(rng: Rng, start: string, rest: string): string {
  let s = rng.pick([...start]);
  const n = rng.below(rng.bool(0.1) ? 64 : 12);
  for (let i = 0; i < n; i++) s += rng.pick([...rest]);
  return s;
}

/** Canonical Python source bytes (UTF-8, NFC, LF, no BOM). */
export function randomSource(rng: Rng): Uint8Array {
  let s = "";
  const n = rng.below(6);
  for (let i = 0; i < n; i++) s += rng.pick(SOURCE_PIECES);
  return utf8(s);
}

/** A random instruction of any kind. */
export function randomInstruction(rng: Rng): Instruction {
  switch (rng.below(14)) {
    case 0:
      return { kind: "transfer", to: rng.bytes(20), amount: rng.u64() };
    case 1:
      return {
        kind: "deploy",
        source: randomSource(rng),
        salt: rng.bytes(32),
        initArgs: rng.blob(),
        value: rng.u64(),
      };
    case 2:
      return {
        kind: "call",
        to: rng.bytes(20),
        handler: word(rng, IDENT_START, IDENT_REST),
        args: rng.blob(),
        value: rng.u64(),
      };
    case 3: {
      const interval = rng.bool() ? null : rng.u64() || 1n;
      return {
        kind: "scheduleTimer",
        actor: rng.bytes(20),
        fireAtHeight: rng.u64(),
        handler: word(rng, IDENT_START, IDENT_REST),
        data: rng.blob(),
        interval,
      };
    }
    case 4:
      return { kind: "cancelTimer", actor: rng.bytes(20), timerId: rng.bytes(32) };
    case 5:
      return { kind: "custom", subType: rng.below(256), payload: rng.blob() };
    // the validator-set System instructions (sub-types 2..=8)
    case 7:
      return {
        kind: "registerValidator",
        blsKey: rng.bytes(48),
        proofOfPossession: rng.bytes(96),
        stake: rng.u64(),
      };
    case 8:
      return { kind: "exitValidator" };
    case 9:
      return { kind: "withdrawStake" };
    case 10:
      return { kind: "unjailValidator" };
    case 11:
      return { kind: "submitEvidence", evidence: rng.blob() };
    case 12:
      return {
        kind: "sysCancelTimer",
        actor: rng.bytes(20),
        timerId: rng.bytes(32),
        epoch: rng.u64(),
        signers: rng.blob(8),
        signature: rng.bytes(96),
      };
    case 13:
      return { kind: "dkgLog", ceremony: rng.u64(), log: rng.blob() };
    default:
      return {
        kind: "publishLibrary",
        name: word(rng, LIB_START, LIB_REST),
        version: rng.u64(),
        source: randomSource(rng),
      };
  }
}

/** A random (structurally valid, not necessarily signed) transaction. */
export function randomTransaction(rng: Rng): Transaction {
  const signers: Array<{ address: Uint8Array; signature: Uint8Array }> = [];
  const n = rng.bool(0.7) ? 0 : rng.below(4);
  for (let i = 0; i < n; i++) signers.push({ address: rng.bytes(20), signature: rng.bytes(65) });
  signers.sort((x, y) => compareBytes(x.address, y.address));
  const additionalSigners = signers.filter(
    (s, i) => i === 0 || compareBytes((signers[i - 1] as (typeof signers)[number]).address, s.address) !== 0,
  );
  const accessList = rng.bool(0.8)
    ? null
    : Array.from({ length: rng.below(3) }, () => ({
        address: rng.bytes(20),
        storageKeys: Array.from({ length: rng.below(3) }, () => rng.blob(40)),
      }));
  const deferred = rng.bool(0.15);
  return {
    chainId: rng.u64(),
    nonce: rng.u64(),
    instruction: randomInstruction(rng),
    cyclesLimit: rng.u64(),
    cellsLimit: rng.u64(),
    maxFeePerCycle: rng.u64(),
    maxFeePerCell: rng.u64(),
    maxPriorityFeePerCycle: rng.u64(),
    maxPriorityFeePerCell: rng.u64(),
    from: rng.bytes(20),
    accessList,
    metadata: rng.blob(),
    originTxHash: deferred || rng.bool(0.1) ? rng.bytes(32) : null,
    originRemainingCycles: deferred || rng.bool(0.1) ? rng.u64() : null,
    originRemainingCells: deferred || rng.bool(0.1) ? rng.u64() : null,
    signature: rng.bool(0.2) ? new Uint8Array(65) : rng.bytes(65),
    additionalSigners,
  };
}

/** Mutations of an encoding used by the fuzz tests. */
export function mutate(rng: Rng, input: Uint8Array): Uint8Array {
  const b = Uint8Array.from(input);
  switch (rng.below(7)) {
    case 0: {
      // flip one bit
      if (b.length === 0) return b;
      const i = rng.below(b.length);
      b[i] = (b[i] as number) ^ (1 << rng.below(8));
      return b;
    }
    case 1:
      // truncate
      return b.subarray(0, rng.below(b.length));
    case 2: {
      // insert random bytes
      const at = rng.below(b.length + 1);
      return Uint8Array.from([...b.subarray(0, at), ...rng.bytes(1 + rng.below(3)), ...b.subarray(at)]);
    }
    case 3: {
      // delete a byte range
      const at = rng.below(b.length);
      return Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1 + rng.below(3))]);
    }
    case 4: {
      // non-minimal varint rewrite: turn byte x<0x80 into (x|0x80), 0x00
      const candidates: number[] = [];
      for (let i = 0; i < b.length; i++) if ((b[i] as number) < 0x80) candidates.push(i);
      if (candidates.length === 0) return b;
      const at = rng.pick(candidates);
      return Uint8Array.from([...b.subarray(0, at), (b[at] as number) | 0x80, 0x00, ...b.subarray(at + 1)]);
    }
    case 5: {
      // overwrite a byte with an edge value (tags, lengths, discriminants)
      if (b.length === 0) return b;
      b[rng.below(b.length)] = rng.pick([0x00, 0x01, 0x02, 0x7f, 0x80, 0xff]);
      return b;
    }
    default:
      // pure random bytes
      return rng.bytes(rng.below(200));
  }
}

/** A random block header. */
export function randomHeader(rng: Rng): BlockHeader {
  return {
    parent: rng.bytes(32),
    height: rng.u64(),
    round: { epoch: rng.u64(), view: rng.u64() },
    proposer: rng.bytes(20),
    timestampMs: rng.u64(),
    stateRoot: rng.bytes(32),
    txRoot: rng.bytes(32),
    receiptsRoot: rng.bytes(32),
    cycleBasefee: rng.u64(),
    cellBasefee: rng.u64(),
    cyclesUsed: rng.u64(),
    cellsUsed: rng.u64(),
    parentSeed: rng.bool() ? new Uint8Array(0) : rng.bytes(96),
  };
}

/** A random block with 0..4 random transactions. */
export function randomBlock(rng: Rng): Block {
  return {
    header: randomHeader(rng),
    transactions: Array.from({ length: rng.below(5) }, () => randomTransaction(rng)),
  };
}

const ERRORS = ["ValueError: bad input", "out of cycles", "ünïcödé error ✓", ""];

/** A random receipt. */
export function randomReceipt(rng: Rng): Receipt {
  return {
    txHash: rng.bytes(32),
    status: rng.pick(RECEIPT_STATUSES),
    cyclesUsed: rng.u64(),
    cellsUsed: rng.u64(),
    feePaid: rng.u64(),
    returnData: rng.blob(60),
    error: rng.bool() ? null : rng.pick(ERRORS),
    events: Array.from({ length: rng.below(4) }, () => ({
      emitter: rng.bytes(20),
      topic: rng.blob(20),
      data: rng.blob(40),
    })),
  };
}

/** A random certificate. */
export function randomCertificate(rng: Rng): Certificate {
  return {
    kind: rng.pick(CERTIFICATE_KINDS),
    blockHash: rng.bytes(32),
    height: rng.u64(),
    round: { epoch: rng.u64(), view: rng.u64() },
    aggregatedSignature: rng.bool() ? new Uint8Array(0) : rng.bytes(96),
    signerBitmap: rng.blob(8),
  };
}
