/**
 * Equivocation evidence (spec "Slashing": double signing and proposer equivocation): two
 * statements one validator signed for the same round that Simplex forbids together —
 *
 * - two `notarize` votes for different blocks (a leader's proposal is its notarize vote, so
 *   two proposals for one view are this case too),
 * - two `finalize` votes for different blocks,
 * - a `nullify` and a `finalize` vote.
 *
 * A statement is either the validator's own vote or a certificate (quorum aggregate with a
 * signer bitmap) that includes the validator — in Simplex, proposals are not relayed, so an
 * equivocating leader is usually caught by a vote of one version against the certificate of
 * the other. Anyone can check evidence with the epoch's registered BLS keys.
 *
 * Binary form (all integers big-endian), strict: every byte consumed, known tags only:
 * ```
 * evidence  = version:u8 (=1) ‖ epoch:u64 ‖ view:u64 ‖ signer:u32 ‖ statement ‖ statement
 * statement = kind:u8 (0 notarize, 1 nullify, 2 finalize) ‖ [height:u64 ‖ block:32]  (absent for nullify)
 *             ‖ form:u8 (0 vote, 1 certificate) ‖ [len:u16 ‖ signer bitmap]  (certificate only)
 *             ‖ signature:96
 * ```
 */
import type { Equivocation, Vote, VoteKind } from "../types.ts";

/** One signed statement of a validator. */
export interface Statement {
  readonly kind: VoteKind;
  /** height of the block (0 for nullify) */
  readonly height: number;
  /** 32-byte block hash as lowercase hex, null for nullify */
  readonly block: string | null;
  /** 96-byte BLS signature: the validator's own, or a certificate's aggregate */
  readonly signature: Uint8Array;
  /** for a certificate: its signer bitmap (bit i%8 of byte i/8), which must include the signer */
  readonly signers?: Uint8Array;
}

/** Two conflicting statements by validator `signer` (its index in epoch `epoch`'s set) in view `view`. */
export interface Evidence {
  readonly epoch: number;
  readonly view: number;
  readonly signer: number;
  readonly a: Statement;
  readonly b: Statement;
}

export class EvidenceError extends Error {
  readonly code: "EVIDENCE_MALFORMED" | "EVIDENCE_NOT_CONFLICTING";
  constructor(code: EvidenceError["code"], message: string) {
    super(message);
    this.name = "EvidenceError";
    this.code = code;
  }
}

const KINDS: readonly VoteKind[] = ["notarize", "nullify", "finalize"];
const SIG = 96;
const HEX32 = /^[0-9a-f]{64}$/;

/** True if a validator may not sign both statements in one round. */
export function conflicting(a: Statement, b: Statement): boolean {
  if (a.kind === "nullify" && b.kind === "nullify") return false;
  if ((a.kind === "nullify" && b.kind === "finalize") || (a.kind === "finalize" && b.kind === "nullify"))
    return true;
  if (a.kind !== b.kind) return false; // notarize + nullify and notarize + finalize are allowed
  return a.block !== b.block || a.height !== b.height;
}

/** Checks shape and conflict (not signatures); throws {@link EvidenceError}. */
export function checkEvidenceShape(e: Evidence): void {
  const safe = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  if (
    !safe(e.epoch) ||
    !safe(e.view) ||
    !Number.isInteger(e.signer) ||
    e.signer < 0 ||
    e.signer > 0xffff_ffff
  )
    throw new EvidenceError("EVIDENCE_MALFORMED", "epoch, view and signer must be non-negative integers");
  for (const s of [e.a, e.b]) {
    if (!KINDS.includes(s.kind))
      throw new EvidenceError("EVIDENCE_MALFORMED", `unknown kind ${String(s.kind)}`);
    if (!(s.signature instanceof Uint8Array) || s.signature.length !== SIG)
      throw new EvidenceError("EVIDENCE_MALFORMED", "a signature must be 96 bytes");
    if (s.signers !== undefined) {
      if (!(s.signers instanceof Uint8Array) || s.signers.length === 0 || s.signers.length > 0xffff)
        throw new EvidenceError("EVIDENCE_MALFORMED", "a certificate bitmap must be 1..65535 bytes");
      if ((((s.signers[e.signer >> 3] ?? 0) >> (e.signer & 7)) & 1) !== 1)
        throw new EvidenceError(
          "EVIDENCE_MALFORMED",
          "the certificate does not include the accused validator",
        );
    }
    if (s.kind === "nullify") {
      if (s.block !== null || s.height !== 0)
        throw new EvidenceError("EVIDENCE_MALFORMED", "a nullify statement has no block");
    } else if (typeof s.block !== "string" || !HEX32.test(s.block) || !safe(s.height)) {
      throw new EvidenceError(
        "EVIDENCE_MALFORMED",
        "a notarize/finalize statement needs a 32-byte block and a height",
      );
    }
  }
  if (e.a.signers !== undefined && e.b.signers !== undefined)
    throw new EvidenceError("EVIDENCE_MALFORMED", "at least one statement must be the validator's own vote");
  if (!conflicting(e.a, e.b))
    throw new EvidenceError("EVIDENCE_NOT_CONFLICTING", "the two statements do not conflict");
}

function statementOf(v: Vote): Statement | null {
  if (v.signature.length < SIG) return null;
  return {
    kind: v.kind,
    height: v.proposal?.height ?? 0,
    block: v.proposal?.payload ?? null,
    // BLS votes append the seed partial after the 96-byte vote signature
    signature: Uint8Array.from(v.signature.subarray(0, SIG)),
  };
}

/** Evidence from a fault the voter reported (two votes, or a vote and a certificate); null if not provable. */
export function evidenceFromEquivocation(e: Equivocation): Evidence | null {
  const other = e.conflicting;
  const a = statementOf(e.vote);
  const b: Statement | null =
    "signer" in other
      ? statementOf(other)
      : {
          kind: other.kind,
          height: other.proposal?.height ?? 0,
          block: other.proposal?.payload ?? null,
          signature: Uint8Array.from(other.signature),
          signers: Uint8Array.from(other.signers),
        };
  if (
    a === null ||
    b === null ||
    e.vote.round.epoch !== other.round.epoch ||
    e.vote.round.view !== other.round.view
  )
    return null;
  const evidence: Evidence = { epoch: e.vote.round.epoch, view: e.vote.round.view, signer: e.signer, a, b };
  try {
    checkEvidenceShape(evidence);
  } catch {
    return null;
  }
  return evidence;
}

/** Encodes evidence (see the module comment); throws {@link EvidenceError} if it is malformed. */
export function encodeEvidence(e: Evidence): Uint8Array {
  checkEvidenceShape(e);
  const parts: Buffer[] = [];
  const head = Buffer.alloc(1 + 8 + 8 + 4);
  head.writeUInt8(1, 0);
  head.writeBigUInt64BE(BigInt(e.epoch), 1);
  head.writeBigUInt64BE(BigInt(e.view), 9);
  head.writeUInt32BE(e.signer, 17);
  parts.push(head);
  for (const s of [e.a, e.b]) {
    parts.push(Buffer.from([KINDS.indexOf(s.kind)]));
    if (s.kind !== "nullify") {
      const h = Buffer.alloc(8);
      h.writeBigUInt64BE(BigInt(s.height));
      parts.push(h, Buffer.from(s.block as string, "hex"));
    }
    if (s.signers === undefined) parts.push(Buffer.from([0]));
    else {
      const len = Buffer.alloc(3);
      len.writeUInt8(1, 0);
      len.writeUInt16BE(s.signers.length, 1);
      parts.push(len, Buffer.from(s.signers));
    }
    parts.push(Buffer.from(s.signature));
  }
  return Uint8Array.from(Buffer.concat(parts));
}

/** Decodes evidence bytes strictly; throws {@link EvidenceError}. */
export function decodeEvidence(bytes: Uint8Array): Evidence {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const need = (n: number) => {
    if (b.length - pos < n) throw new EvidenceError("EVIDENCE_MALFORMED", "truncated evidence");
  };
  const u64 = () => {
    need(8);
    const v = b.readBigUInt64BE(pos);
    pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new EvidenceError("EVIDENCE_MALFORMED", "integer above 2^53 - 1");
    return Number(v);
  };
  need(1);
  if (b[pos++] !== 1) throw new EvidenceError("EVIDENCE_MALFORMED", "unknown evidence version");
  const epoch = u64();
  const view = u64();
  need(4);
  const signer = b.readUInt32BE(pos);
  pos += 4;
  const statement = (): Statement => {
    need(1);
    const kind = KINDS[b[pos++] as number];
    if (kind === undefined) throw new EvidenceError("EVIDENCE_MALFORMED", "unknown statement kind");
    let height = 0;
    let block: string | null = null;
    if (kind !== "nullify") {
      height = u64();
      need(32);
      block = b.subarray(pos, pos + 32).toString("hex");
      pos += 32;
    }
    need(1);
    const form = b[pos++] as number;
    let signers: Uint8Array | undefined;
    if (form === 1) {
      need(2);
      const len = b.readUInt16BE(pos);
      pos += 2;
      need(len);
      signers = Uint8Array.from(b.subarray(pos, pos + len));
      pos += len;
    } else if (form !== 0) throw new EvidenceError("EVIDENCE_MALFORMED", "unknown statement form");
    need(SIG);
    const signature = Uint8Array.from(b.subarray(pos, pos + SIG));
    pos += SIG;
    return signers === undefined
      ? { kind, height, block, signature }
      : { kind, height, block, signature, signers };
  };
  const a = statement();
  const s2 = statement();
  if (pos !== b.length) throw new EvidenceError("EVIDENCE_MALFORMED", "trailing bytes after the evidence");
  const e: Evidence = { epoch, view, signer, a, b: s2 };
  checkEvidenceShape(e);
  return e;
}
