/**
 * What consensus orders: a chain {@link Block} plus the consensus link the block header does
 * not carry (the view of its parent). The voter identifies a proposal by a digest that must
 * commit to the whole link (view, height, parent view, parent digest), so the consensus digest
 * of a block is
 *
 * ```text
 * digest = sha256("cowboy-cblock-v1" ‖ parentView:u64 BE ‖ parentDigest(32) ‖ blockHash(header))
 * ```
 *
 * The header commits to its own view (`round`), height and parent *block hash*; the parent's
 * consensus digest and view are added here. The genesis block's digest is its block hash.
 *
 * Wire form (strict: every byte consumed):
 * `version:u8 (=1) ‖ parentView:u64 BE ‖ parentDigest(32) ‖ canonical block bytes`.
 */
import { createHash } from "node:crypto";
import { type Block, blockHash, decodeBlock, encodeBlock } from "@cowboy/sdk";

/** A block as consensus carries it. */
export interface ConsensusBlock {
  readonly block: Block;
  /** view of the parent block (0 = genesis) */
  readonly parentView: number;
  /** consensus digest of the parent block (lowercase hex, 32 bytes) */
  readonly parent: string;
}

const VERSION = 1;
const DOMAIN = Buffer.from("cowboy-cblock-v1");

/** Thrown by {@link decodeConsensusBlock} on malformed bytes. */
export class ConsensusBlockError extends Error {
  readonly code = "ERR_CBLOCK_DECODE";
  constructor(message: string) {
    super(message);
    this.name = "ConsensusBlockError";
  }
}

const HEX32 = /^[0-9a-f]{64}$/;

/** Canonical bytes of a consensus block. */
export function encodeConsensusBlock(b: ConsensusBlock): Uint8Array {
  if (!HEX32.test(b.parent)) throw new ConsensusBlockError("parent digest must be 32 bytes of lowercase hex");
  const head = Buffer.alloc(1 + 8 + 32);
  head.writeUInt8(VERSION, 0);
  head.writeBigUInt64BE(BigInt(b.parentView), 1);
  Buffer.from(b.parent, "hex").copy(head, 9);
  return Buffer.concat([head, encodeBlock(b.block)]);
}

/** Parses {@link encodeConsensusBlock}'s output; throws {@link ConsensusBlockError}. */
export function decodeConsensusBlock(bytes: Uint8Array): ConsensusBlock {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 41) throw new ConsensusBlockError("truncated consensus block");
  if (buf.readUInt8(0) !== VERSION) throw new ConsensusBlockError(`unknown version ${buf.readUInt8(0)}`);
  const parentView = buf.readBigUInt64BE(1);
  if (parentView > BigInt(Number.MAX_SAFE_INTEGER)) throw new ConsensusBlockError("parent view too large");
  let block: Block;
  try {
    block = decodeBlock(buf.subarray(41));
  } catch (err) {
    throw new ConsensusBlockError(`bad block: ${(err as Error).message}`);
  }
  if (
    block.header.height > BigInt(Number.MAX_SAFE_INTEGER) ||
    block.header.round.view > BigInt(Number.MAX_SAFE_INTEGER)
  )
    throw new ConsensusBlockError("height or view too large");
  return { block, parentView: Number(parentView), parent: buf.subarray(9, 41).toString("hex") };
}

/** The consensus digest of a block (see the module comment). */
export function consensusDigest(b: ConsensusBlock): string {
  const v = Buffer.alloc(8);
  v.writeBigUInt64BE(BigInt(b.parentView));
  return createHash("sha256")
    .update(DOMAIN)
    .update(v)
    .update(Buffer.from(b.parent, "hex"))
    .update(blockHash(b.block.header))
    .digest("hex");
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
