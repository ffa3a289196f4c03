import type { Certificate, Message, Proposal, Vote, VoteKind } from "@cowboy/consensus";
import { describe, expect, it } from "vitest";
import { isP2pError, type P2pErrorCode } from "../src/errors.ts";
import { encodeFrame, FrameDecoder } from "../src/framing.ts";
import { PeerScores } from "../src/scores.ts";
import {
  type BlockCodec,
  decodeMessage,
  decodeSyncRequest,
  decodeSyncResponse,
  encodeMessage,
  encodeSyncRequest,
  encodeSyncResponse,
  WIRE_VERSION,
} from "../src/wire.ts";

/** Blocks in these tests are strings; decoding rejects invalid UTF-8. */
const codec: BlockCodec = {
  encode: (block) => {
    if (typeof block !== "string") throw new Error("block must be a string");
    return new TextEncoder().encode(block);
  },
  decode: (bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
};

/** xorshift32: deterministic pseudo-random numbers for the property tests. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n: number) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
}

function randomMessage(r: (n: number) => number): Message {
  const bytes = (max: number) => Uint8Array.from({ length: r(max + 1) }, () => r(256));
  const hex = () =>
    Buffer.from(Uint8Array.from({ length: 1 + r(64) }, () => r(256)))
      .toString("hex")
      .toLowerCase();
  const int = () => (r(4) === 0 ? Number.MAX_SAFE_INTEGER - r(1000) : r(1_000_000));
  const round = () => ({ epoch: int(), view: int() });
  const proposal = (): Proposal => ({
    round: round(),
    height: int(),
    parentView: int(),
    parent: hex(),
    payload: hex(),
  });
  const kind = (): VoteKind => (["notarize", "nullify", "finalize"] as const)[r(3)] as VoteKind;
  const vote = (): Vote => {
    const k = kind();
    return {
      kind: k,
      round: round(),
      proposal: k === "nullify" ? null : proposal(),
      signer: r(2 ** 31),
      signature: bytes(96),
    };
  };
  const cert = (): Certificate => {
    const k = kind();
    return {
      kind: k,
      round: round(),
      proposal: k === "nullify" ? null : proposal(),
      signers: bytes(16),
      signature: bytes(96),
      seed: r(2) === 0 ? null : bytes(96),
    };
  };
  const block = () => "b".repeat(r(40)) + String(r(1000));
  switch (r(5)) {
    case 0:
      return { type: "propose", proposal: proposal(), block: block(), vote: vote() };
    case 1:
      return { type: "vote", vote: vote() };
    case 2:
      return { type: "certificate", certificate: cert() };
    case 3:
      return {
        type: "fetch",
        want:
          r(2) === 0
            ? { kind: "block", digest: hex() }
            : { kind: "certificates", fromView: int(), toView: int() },
      };
    default:
      return {
        type: "fetched",
        blocks: Array.from({ length: r(4) }, () => ({ proposal: proposal(), block: block() })),
        certificates: Array.from({ length: r(4) }, cert),
      };
  }
}

function codeOf(f: () => unknown): P2pErrorCode | "no error" | "untyped" {
  try {
    f();
    return "no error";
  } catch (e) {
    return isP2pError(e) ? e.code : "untyped";
  }
}

const proposal: Proposal = {
  round: { epoch: 1, view: 7 },
  height: 5,
  parentView: 6,
  parent: "aa".repeat(32),
  payload: "bb".repeat(32),
};
const vote: Vote = {
  kind: "notarize",
  round: proposal.round,
  proposal,
  signer: 3,
  signature: new Uint8Array([1, 2]),
};

describe("wire codec", () => {
  it("round-trips 500 random messages of every type", () => {
    const r = rng(0xc0ffee);
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const m = randomMessage(r);
      seen.add(m.type);
      const bytes = encodeMessage(m, codec);
      expect(bytes[0]).toBe(WIRE_VERSION);
      expect(decodeMessage(bytes, codec)).toEqual(m);
      // a Node Buffer input decodes to plain Uint8Arrays too
      expect(decodeMessage(Buffer.from(bytes), codec)).toEqual(m);
      // deterministic bytes
      expect(encodeMessage(decodeMessage(bytes, codec), codec)).toEqual(bytes);
    }
    expect(seen.size).toBe(5);
  });

  it("rejects every truncation with WIRE_TRUNCATED and any extra byte with WIRE_TRAILING_BYTES", () => {
    const r = rng(42);
    for (let i = 0; i < 60; i++) {
      const bytes = encodeMessage(randomMessage(r), codec);
      for (let cut = 0; cut < bytes.length; cut++)
        expect(codeOf(() => decodeMessage(bytes.subarray(0, cut), codec))).toBe("WIRE_TRUNCATED");
      const extra = new Uint8Array(bytes.length + 1);
      extra.set(bytes);
      expect(codeOf(() => decodeMessage(extra, codec))).toBe("WIRE_TRAILING_BYTES");
    }
  });

  it("never throws an untyped error on random garbage", () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      const junk = Uint8Array.from({ length: r(80) }, () => r(256));
      if (i % 2 === 0 && junk.length > 1) junk[0] = WIRE_VERSION;
      const code = codeOf(() => decodeMessage(junk, codec));
      expect(code).not.toBe("untyped");
    }
  });

  it("rejects bad version, tag, flags, kinds and digests with specific codes", () => {
    const good = encodeMessage({ type: "vote", vote }, codec);
    const bad = (i: number, v: number) => {
      const b = good.slice();
      b[i] = v;
      return b;
    };
    expect(codeOf(() => decodeMessage(bad(0, 1), codec))).toBe("WIRE_BAD_VERSION");
    expect(codeOf(() => decodeMessage(bad(1, 9), codec))).toBe("WIRE_BAD_TAG");
    expect(codeOf(() => decodeMessage(bad(2, 3), codec))).toBe("WIRE_BAD_TAG"); // vote kind
    expect(codeOf(() => decodeMessage(bad(19, 2), codec))).toBe("WIRE_BAD_TAG"); // option flag
    // notarize without a proposal
    expect(codeOf(() => decodeMessage(bad(19, 0), codec))).toBe("WIRE_BAD_VALUE");
    // digest length 0
    expect(codeOf(() => decodeMessage(bad(2 + 17 + 1 + 32, 0), codec))).toBe("WIRE_BAD_VALUE");
    // a view above 2^53 - 1
    const huge = good.slice();
    new DataView(huge.buffer).setBigUint64(11, 2n ** 60n);
    expect(codeOf(() => decodeMessage(huge, codec))).toBe("WIRE_BAD_VALUE");
  });

  it("rejects values it cannot carry when encoding", () => {
    const nullifyWithProposal = { type: "vote", vote: { ...vote, kind: "nullify" } } as Message;
    expect(codeOf(() => encodeMessage(nullifyWithProposal, codec))).toBe("WIRE_BAD_VALUE");
    const upperHex = { type: "fetch", want: { kind: "block", digest: "AB" } } as Message;
    expect(codeOf(() => encodeMessage(upperHex, codec))).toBe("WIRE_BAD_VALUE");
    const fractional = { type: "vote", vote: { ...vote, round: { epoch: 1, view: 1.5 } } } as Message;
    expect(codeOf(() => encodeMessage(fractional, codec))).toBe("WIRE_BAD_VALUE");
    const notBlock = { type: "propose", proposal, block: 42, vote } as Message;
    expect(codeOf(() => encodeMessage(notBlock, codec))).toBe("WIRE_BAD_BLOCK");
    expect(codeOf(() => encodeMessage({ type: "vote", vote }, codec, 10))).toBe("WIRE_TOO_LARGE");
  });

  it("maps block codec failures to WIRE_BAD_BLOCK and bounds counts by the input", () => {
    const m: Message = { type: "propose", proposal, block: "ok", vote };
    const bytes = encodeMessage(m, codec);
    const at = bytes.indexOf(0x6f); // 'o' of the block
    const broken = bytes.slice();
    broken[at] = 0xff; // invalid UTF-8
    expect(codeOf(() => decodeMessage(broken, codec))).toBe("WIRE_BAD_BLOCK");
    // fetched with a count of 2^32-1 blocks and nothing after it
    const lying = Uint8Array.from([WIRE_VERSION, 5, 0xff, 0xff, 0xff, 0xff]);
    expect(codeOf(() => decodeMessage(lying, codec))).toBe("WIRE_TRUNCATED");
    expect(codeOf(() => decodeMessage(bytes, codec, 8))).toBe("WIRE_TOO_LARGE");
  });
});

describe("framing", () => {
  it("reassembles frames split at every byte and refuses oversize headers", () => {
    const frames = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(300).fill(9)];
    const stream = new Uint8Array(frames.reduce((n, f) => n + f.length + 4, 0));
    let o = 0;
    for (const f of frames) {
      const e = encodeFrame(f, 1000);
      stream.set(e, o);
      o += e.length;
    }
    for (let split = 1; split < stream.length; split++) {
      const d = new FrameDecoder(1000);
      const got = [...d.push(stream.subarray(0, split)), ...d.push(stream.subarray(split))];
      expect(got).toEqual(frames);
      d.end();
    }
    const d = new FrameDecoder(100);
    expect(codeOf(() => d.push(Uint8Array.from([0, 0, 0, 101])))).toBe("FRAME_TOO_LARGE");
    const t = new FrameDecoder(100);
    t.push(Uint8Array.from([0, 0, 0, 5, 1]));
    expect(codeOf(() => t.end())).toBe("FRAME_TRUNCATED");
    expect(codeOf(() => encodeFrame(new Uint8Array(101), 100))).toBe("FRAME_TOO_LARGE");
  });
});

describe("peer scores", () => {
  it("bans at the threshold, recovers over time and lifts the ban", () => {
    let now = 0;
    const s = new PeerScores({ banThreshold: -100, banMs: 10_000, recoveryPerSecond: 2 }, () => now);
    expect(s.penalize("p", 60)).toBe(false);
    expect(s.score("p")).toBe(-60);
    now = 10_000; // +20 recovered
    expect(s.score("p")).toBe(-40);
    expect(s.penalize("p", 59)).toBe(false);
    expect(s.penalize("p", 1)).toBe(true);
    expect(s.isBanned("p")).toBe(true);
    expect(s.banned()).toEqual(["p"]);
    now = 20_000;
    expect(s.isBanned("p")).toBe(false);
    expect(s.score("p")).toBe(0);
  });
});

describe("block-sync messages", () => {
  const certificate: Certificate = {
    kind: "finalize",
    round: { epoch: 0, view: 9 },
    proposal: {
      round: { epoch: 0, view: 9 },
      height: 4,
      parentView: 8,
      parent: "aa".repeat(32),
      payload: "bb".repeat(32),
    },
    signers: Uint8Array.of(7),
    signature: new Uint8Array(96).fill(3),
    seed: null,
  };

  it("round-trip requests and responses, strictly", () => {
    expect(decodeSyncRequest(encodeSyncRequest({ from: 12, max: 256 }))).toEqual({ from: 12, max: 256 });
    const res = {
      tip: 40,
      blocks: [
        { block: "b3", certificate: null },
        { block: "b4", certificate },
      ],
    };
    const bytes = encodeSyncResponse(res, codec);
    expect(decodeSyncResponse(bytes, codec)).toEqual(res);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(codeOf(() => decodeSyncResponse(bytes.subarray(0, cut), codec))).not.toBe("no error");
    expect(codeOf(() => decodeSyncResponse(Uint8Array.from([...bytes, 0]), codec))).toBe(
      "WIRE_TRAILING_BYTES",
    );
    const req = encodeSyncRequest({ from: 1, max: 1 });
    expect(codeOf(() => decodeSyncResponse(req, codec))).toBe("WIRE_BAD_TAG");
    expect(codeOf(() => decodeSyncRequest(Uint8Array.from([9, ...req.subarray(1)])))).toBe(
      "WIRE_BAD_VERSION",
    );
    expect(codeOf(() => encodeSyncResponse(res, codec, 10))).toBe("WIRE_TOO_LARGE");
  });
});
