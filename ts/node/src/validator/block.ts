/**
 * What consensus orders: a chain {@link Block} plus the consensus link the block header does
 * not carry (the view of its parent) and the parent's certificate. The voter identifies a
 * proposal by a digest that must commit to the whole link (view, height, parent view, parent
 * digest) and to the certificate, so the consensus digest of a block is
 *
 * ```text
 * v2: digest = sha256("cowboy-cblock-v2" ‖ parentView:u64 BE ‖ parentDigest(32) ‖ sha256(cert) ‖ blockHash(header))
 * v1: digest = sha256("cowboy-cblock-v1" ‖ parentView:u64 BE ‖ parentDigest(32) ‖ blockHash(header))
 * ```
 *
 * The header commits to its own view (`round`), height and parent *block hash*; the parent's
 * consensus digest and view are added here. The genesis block's digest is its block hash.
 *
 * The **parent certificate** (v2) is a quorum certificate of the parent block (its
 * notarization or finalization: signer bitmap, BLS aggregate, seed), so that every validator
 * re-executing the block knows — and can verify — whose votes certified the parent: the
 * `participants` of downtime accounting (`Chain.buildBlock` / `applyBlock`). Blocks at height
 * 1 (parent: genesis) carry none; every later block must.
 *
 * Wire form (strict: every byte consumed):
 * ```text
 * v2: version:u8 (=2) ‖ parentView:u64 BE ‖ parentDigest(32) ‖ certLen:u32 BE ‖ cert ‖ canonical block bytes
 *     cert = kind:u8 (0 notarize, 2 finalize) ‖ signersLen:u16 BE ‖ signers ‖ signature(96) ‖ seedLen:u8 (0|96) ‖ seed
 *     (certLen 0 = no certificate)
 * v1: version:u8 (=1) ‖ parentView:u64 BE ‖ parentDigest(32) ‖ canonical block bytes   (read only)
 * ```
 */
import { createHash } from "node:crypto";
import { type Block, blockHash, decodeBlock, encodeBlock } from "@cowboy/sdk";

/** A quorum certificate of a block's parent, as a block carries it. */
export interface ParentCertificate {
  readonly kind: "notarize" | "finalize";
  /** signer bitmap over the parent epoch's set (bit i%8 of byte i/8) */
  readonly signers: Uint8Array;
  /** 96-byte BLS aggregate */
  readonly signature: Uint8Array;
  /** the round's seed (notarizations), or null */
  readonly seed: Uint8Array | null;
}

/** A block as consensus carries it. */
export interface ConsensusBlock {
  readonly block: Block;
  /** view of the parent block (0 = genesis) */
  readonly parentView: number;
  /** consensus digest of the parent block (lowercase hex, 32 bytes) */
  readonly parent: string;
  /** the parent's certificate (absent/null: genesis parent, or a v1 block) */
  readonly parentCertificate?: ParentCertificate | null;
  /** wire version (1 = legacy, read only; default 2) */
  readonly version?: 1 | 2;
}

/**
 * Most transactions a validator puts in a block it proposes (a proposer policy, not a validity
 * rule: blocks from others may hold up to what the lane budgets allow). Every validator
 * executes a proposal before voting on it, so a block's build + propagation + execution must
 * fit well inside the leader and notarization timeouts even on a busy machine; a block at the
 * lane budgets' limit (~3,400 transfers) did not on a 2-core host running 4–7 validators, and
 * its view was nullified — after all that work — again and again while the mempool stayed
 * full. Smaller blocks, proposed every view, keep the pipeline moving.
 */
export const PROPOSAL_MAX_TXS = 1_000;

const VERSION = 2;
const DOMAIN_V1 = Buffer.from("cowboy-cblock-v1");
const DOMAIN_V2 = Buffer.from("cowboy-cblock-v2");
const SIG = 96;
const MAX_SIGNERS_BYTES = 1_024;

/** Thrown by {@link decodeConsensusBlock} on malformed bytes. */
export class ConsensusBlockError extends Error {
  readonly code = "ERR_CBLOCK_DECODE";
  constructor(message: string) {
    super(message);
    this.name = "ConsensusBlockError";
  }
}

const HEX32 = /^[0-9a-f]{64}$/;

/** Canonical bytes of a parent certificate (empty for none). */
export function encodeParentCertificate(c: ParentCertificate | null | undefined): Buffer {
  if (c === null || c === undefined) return Buffer.alloc(0);
  if (c.signature.length !== SIG) throw new ConsensusBlockError("a certificate signature is 96 bytes");
  if (c.signers.length === 0 || c.signers.length > MAX_SIGNERS_BYTES)
    throw new ConsensusBlockError("bad certificate signer bitmap");
  if (c.seed !== null && c.seed.length !== SIG) throw new ConsensusBlockError("a seed is 96 bytes");
  const head = Buffer.alloc(3);
  head.writeUInt8(c.kind === "notarize" ? 0 : 2, 0);
  head.writeUInt16BE(c.signers.length, 1);
  return Buffer.concat([
    head,
    Buffer.from(c.signers),
    Buffer.from(c.signature),
    Buffer.from([c.seed === null ? 0 : SIG]),
    c.seed === null ? Buffer.alloc(0) : Buffer.from(c.seed),
  ]);
}

function decodeParentCertificate(b: Buffer): ParentCertificate | null {
  if (b.length === 0) return null;
  if (b.length < 3) throw new ConsensusBlockError("truncated certificate");
  const k = b.readUInt8(0);
  if (k !== 0 && k !== 2) throw new ConsensusBlockError(`unknown certificate kind ${k}`);
  const n = b.readUInt16BE(1);
  if (n === 0 || n > MAX_SIGNERS_BYTES) throw new ConsensusBlockError("bad certificate signer bitmap");
  let pos = 3;
  if (b.length < pos + n + SIG + 1) throw new ConsensusBlockError("truncated certificate");
  const signers = Uint8Array.from(b.subarray(pos, pos + n));
  pos += n;
  const signature = Uint8Array.from(b.subarray(pos, pos + SIG));
  pos += SIG;
  const seedLen = b.readUInt8(pos++);
  if (seedLen !== 0 && seedLen !== SIG) throw new ConsensusBlockError("a seed is 96 bytes");
  if (b.length !== pos + seedLen) throw new ConsensusBlockError("bad certificate length");
  const seed = seedLen === 0 ? null : Uint8Array.from(b.subarray(pos, pos + SIG));
  return { kind: k === 0 ? "notarize" : "finalize", signers, signature, seed };
}

/** Canonical bytes of a consensus block (v2; a v1 block is re-encoded as v1). */
export function encodeConsensusBlock(b: ConsensusBlock): Uint8Array {
  if (!HEX32.test(b.parent)) throw new ConsensusBlockError("parent digest must be 32 bytes of lowercase hex");
  if (b.version === 1) {
    if (b.parentCertificate != null) throw new ConsensusBlockError("a v1 block carries no certificate");
    const head = Buffer.alloc(1 + 8 + 32);
    head.writeUInt8(1, 0);
    head.writeBigUInt64BE(BigInt(b.parentView), 1);
    Buffer.from(b.parent, "hex").copy(head, 9);
    return Buffer.concat([head, encodeBlock(b.block)]);
  }
  const cert = encodeParentCertificate(b.parentCertificate);
  const head = Buffer.alloc(1 + 8 + 32 + 4);
  head.writeUInt8(VERSION, 0);
  head.writeBigUInt64BE(BigInt(b.parentView), 1);
  Buffer.from(b.parent, "hex").copy(head, 9);
  head.writeUInt32BE(cert.length, 41);
  return Buffer.concat([head, cert, encodeBlock(b.block)]);
}

/** Parses {@link encodeConsensusBlock}'s output (v1 or v2); throws {@link ConsensusBlockError}. */
export function decodeConsensusBlock(bytes: Uint8Array): ConsensusBlock {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 41) throw new ConsensusBlockError("truncated consensus block");
  const version = buf.readUInt8(0);
  if (version !== 1 && version !== 2) throw new ConsensusBlockError(`unknown version ${version}`);
  const parentView = buf.readBigUInt64BE(1);
  if (parentView > BigInt(Number.MAX_SAFE_INTEGER)) throw new ConsensusBlockError("parent view too large");
  let pos = 41;
  let parentCertificate: ParentCertificate | null = null;
  if (version === 2) {
    if (buf.length < 45) throw new ConsensusBlockError("truncated consensus block");
    const len = buf.readUInt32BE(41);
    if (buf.length < 45 + len) throw new ConsensusBlockError("truncated certificate");
    parentCertificate = decodeParentCertificate(buf.subarray(45, 45 + len));
    pos = 45 + len;
  }
  let block: Block;
  try {
    block = decodeBlock(buf.subarray(pos));
  } catch (err) {
    throw new ConsensusBlockError(`bad block: ${(err as Error).message}`);
  }
  if (
    block.header.height > BigInt(Number.MAX_SAFE_INTEGER) ||
    block.header.round.view > BigInt(Number.MAX_SAFE_INTEGER)
  )
    throw new ConsensusBlockError("height or view too large");
  const parent = buf.subarray(9, 41).toString("hex");
  return version === 1
    ? { block, parentView: Number(parentView), parent, version: 1 }
    : { block, parentView: Number(parentView), parent, parentCertificate };
}

/** The consensus digest of a block (see the module comment). */
export function consensusDigest(b: ConsensusBlock): string {
  const v = Buffer.alloc(8);
  v.writeBigUInt64BE(BigInt(b.parentView));
  const h = createHash("sha256");
  if (b.version === 1) h.update(DOMAIN_V1).update(v).update(Buffer.from(b.parent, "hex"));
  else
    h.update(DOMAIN_V2)
      .update(v)
      .update(Buffer.from(b.parent, "hex"))
      .update(createHash("sha256").update(encodeParentCertificate(b.parentCertificate)).digest());
  return h.update(blockHash(b.block.header)).digest("hex");
}

/** Consensus indices whose votes are in a block's parent certificate (ascending); undefined without one. */
export function participantsOf(b: Pick<ConsensusBlock, "parentCertificate">): number[] | undefined {
  const c = b.parentCertificate;
  if (c === null || c === undefined) return undefined;
  const out: number[] = [];
  for (let i = 0; i < c.signers.length * 8; i++)
    if ((((c.signers[i >> 3] as number) >> (i & 7)) & 1) === 1) out.push(i);
  return out;
}

/** The link the voter reads from a block. */
export function consensusLink(b: ConsensusBlock): {
  view: number;
  height: number;
  parentView: number;
  parent: string;
} {
  return {
    view: Number(b.block.header.round.view),
    height: Number(b.block.header.height),
    parentView: b.parentView,
    parent: b.parent,
  };
}
