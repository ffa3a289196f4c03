/**
 * Rounds, block headers, blocks, receipts, events and certificates, and the
 * domain-separated keccak Merkle root (docs/codec.md §5). Byte-identical to
 * `cowboy-codec`'s `block.rs`, `receipt.rs` and `merkle.rs`.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { signingHash } from "./crypto.ts";
import { CodecError, inField } from "./errors.ts";
import { Reader } from "./reader.ts";
import { ADDRESS_SIZE, HASH_SIZE, MAX_TX_SIZE, readTransaction, txTooLarge, writeTransaction } from "./tx.ts";
import type { Address, Hash32, Transaction } from "./types.ts";
import { Writer } from "./writer.ts";

/** A consensus round `(epoch, view)`, ordered epoch first. */
export interface Round {
  epoch: bigint;
  view: bigint;
}

/** Orders rounds lexicographically (epoch, then view): negative, zero or positive. */
export function compareRounds(a: Round, b: Round): number {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  if (a.view !== b.view) return a.view < b.view ? -1 : 1;
  return 0;
}

/** A block header; its keccak256 is the block hash. */
export interface BlockHeader {
  parent: Hash32;
  height: bigint;
  round: Round;
  proposer: Address;
  timestampMs: bigint;
  stateRoot: Hash32;
  txRoot: Hash32;
  receiptsRoot: Hash32;
  cycleBasefee: bigint;
  cellBasefee: bigint;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  /** Threshold-BLS seed signature of the preceding round (empty until BLS lands). */
  parentSeed: Uint8Array;
}

/** A block: header and transactions (each inline, each ≤ MAX_TX_SIZE). */
export interface Block {
  header: BlockHeader;
  transactions: Transaction[];
}

/** Receipt status names, by their 1-byte discriminant. */
export const RECEIPT_STATUSES = ["success", "reverted", "outOfCycles", "outOfCells", "invalid"] as const;
/** Outcome of a transaction. */
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** An event emitted during execution. */
export interface Event {
  emitter: Address;
  topic: Uint8Array;
  data: Uint8Array;
}

/** The receipt of one transaction; its keccak256 is the receipt hash. */
export interface Receipt {
  txHash: Hash32;
  status: ReceiptStatus;
  cyclesUsed: bigint;
  cellsUsed: bigint;
  feePaid: bigint;
  returnData: Uint8Array;
  error: string | null;
  events: Event[];
}

/** Certificate kinds, by their 1-byte discriminant (Simplex). */
export const CERTIFICATE_KINDS = ["notarize", "nullify", "finalize"] as const;
/** What the votes of a certificate were for. */
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** An aggregated-vote certificate (spec §6.1 "QC"). */
export interface Certificate {
  kind: CertificateKind;
  blockHash: Hash32;
  height: bigint;
  round: Round;
  aggregatedSignature: Uint8Array;
  signerBitmap: Uint8Array;
}

/** Smallest transaction encoding; bounds a block's declared transaction count. */
const MIN_TX_SIZE = 1 + 1 + 2 + 6 + ADDRESS_SIZE + 1 + 1 + 3 + 65 + 1;

function discriminant(names: readonly string[], name: string, field: string): number {
  const i = names.indexOf(name);
  if (i < 0) throw new CodecError("INVALID_VALUE", field, `unknown ${field} ${JSON.stringify(name)}`);
  return i;
}

function variant<T extends string>(names: readonly T[], r: Reader, field: string): T {
  const v = r.u8(field);
  const name = names[v];
  if (name === undefined) throw new CodecError("UNKNOWN_VARIANT", field, `unknown discriminant ${v}`);
  return name;
}

function decodeWith<T>(bytes: Uint8Array, what: string, read: (r: Reader) => T): T {
  const r = new Reader(bytes);
  const value = read(r);
  r.finish(what);
  return value;
}

function encodeWith(write: (w: Writer) => void): Uint8Array {
  const w = new Writer(256);
  write(w);
  return w.finish();
}

// ---------------------------------------------------------------------------
// Round

/** Writes `varint epoch ‖ varint view`. */
export function writeRound(w: Writer, round: Round): void {
  w.varint(round.epoch, "round.epoch");
  w.varint(round.view, "round.view");
}

/** Reads a round (fields `round.epoch`, `round.view`). */
export function readRound(r: Reader): Round {
  return { epoch: r.varint("round.epoch"), view: r.varint("round.view") };
}

/** Canonical bytes of a round. */
export const encodeRound = (round: Round): Uint8Array => encodeWith((w) => writeRound(w, round));
/** Strictly decodes a round (no trailing bytes). */
export const decodeRound = (bytes: Uint8Array): Round => decodeWith(bytes, "round", readRound);

// ---------------------------------------------------------------------------
// BlockHeader

/** Writes a header in its frozen field order (docs/codec.md §5). */
export function writeBlockHeader(w: Writer, h: BlockHeader): void {
  w.fixed(h.parent, HASH_SIZE, "parent");
  w.varint(h.height, "height");
  writeRound(w, h.round);
  w.fixed(h.proposer, ADDRESS_SIZE, "proposer");
  w.varint(h.timestampMs, "timestamp_ms");
  w.fixed(h.stateRoot, HASH_SIZE, "state_root");
  w.fixed(h.txRoot, HASH_SIZE, "tx_root");
  w.fixed(h.receiptsRoot, HASH_SIZE, "receipts_root");
  w.varint(h.cycleBasefee, "cycle_basefee");
  w.varint(h.cellBasefee, "cell_basefee");
  w.varint(h.cyclesUsed, "cycles_used");
  w.varint(h.cellsUsed, "cells_used");
  w.bytes(h.parentSeed, "parent_seed");
}

/** Reads a header (no trailing-bytes check). */
export function readBlockHeader(r: Reader): BlockHeader {
  return {
    parent: r.fixed(HASH_SIZE, "parent"),
    height: r.varint("height"),
    round: readRound(r),
    proposer: r.fixed(ADDRESS_SIZE, "proposer"),
    timestampMs: r.varint("timestamp_ms"),
    stateRoot: r.fixed(HASH_SIZE, "state_root"),
    txRoot: r.fixed(HASH_SIZE, "tx_root"),
    receiptsRoot: r.fixed(HASH_SIZE, "receipts_root"),
    cycleBasefee: r.varint("cycle_basefee"),
    cellBasefee: r.varint("cell_basefee"),
    cyclesUsed: r.varint("cycles_used"),
    cellsUsed: r.varint("cells_used"),
    parentSeed: r.bytes("parent_seed"),
  };
}

/** Canonical bytes of a header (the block-hash preimage). */
export const encodeBlockHeader = (h: BlockHeader): Uint8Array => encodeWith((w) => writeBlockHeader(w, h));
/** Strictly decodes a header (no trailing bytes). */
export const decodeBlockHeader = (bytes: Uint8Array): BlockHeader =>
  decodeWith(bytes, "block_header", readBlockHeader);

/** Block hash = keccak256(encode(header)). */
export function blockHash(header: BlockHeader): Hash32 {
  return keccak_256(encodeBlockHeader(header));
}

// ---------------------------------------------------------------------------
// Block

/**
 * Reads one transaction from the front of `r` as inside a block: it may not
 * extend beyond MAX_TX_SIZE bytes (a transaction that runs past that window is
 * `TX_TOO_LARGE`).
 */
export function readBoundedTransaction(r: Reader): Transaction {
  const rest = r.remaining;
  const windowLen = Math.min(rest, MAX_TX_SIZE);
  const inner = new Reader(r.buf.subarray(r.pos, r.pos + windowLen));
  try {
    const tx = readTransaction(inner);
    r.pos += inner.pos;
    return tx;
  } catch (err) {
    if (
      err instanceof CodecError &&
      (err.code === "UNEXPECTED_EOF" || err.code === "LENGTH_OVERFLOW") &&
      rest > MAX_TX_SIZE
    ) {
      throw txTooLarge(MAX_TX_SIZE + 1);
    }
    throw err;
  }
}

/** Writes `header ‖ vec<Transaction>`; each transaction obeys every transaction rule and MAX_TX_SIZE. */
export function writeBlock(w: Writer, block: Block): void {
  writeBlockHeader(w, block.header);
  w.len(block.transactions.length, "transactions");
  block.transactions.forEach((tx, i) => {
    const start = w.pos;
    try {
      writeTransaction(w, tx);
    } catch (err) {
      throw err instanceof CodecError ? inField(err, `transactions[${i}]`) : err;
    }
    if (w.pos - start > MAX_TX_SIZE) {
      throw txTooLarge(w.pos - start);
    }
  });
}

/** Reads a block; errors are nested under `header.` / `transactions[i].` as in Rust. */
export function readBlock(r: Reader): Block {
  let header: BlockHeader;
  try {
    header = readBlockHeader(r);
  } catch (err) {
    throw err instanceof CodecError ? inField(err, "header") : err;
  }
  const n = r.len("transactions", MIN_TX_SIZE);
  const transactions: Transaction[] = [];
  for (let i = 0; i < n; i++) {
    try {
      transactions.push(readBoundedTransaction(r));
    } catch (err) {
      throw err instanceof CodecError ? inField(err, `transactions[${i}]`) : err;
    }
  }
  return { header, transactions };
}

/** Canonical bytes of a block. */
export const encodeBlock = (block: Block): Uint8Array => encodeWith((w) => writeBlock(w, block));
/** Strictly decodes a block (no trailing bytes). */
export const decodeBlock = (bytes: Uint8Array): Block => decodeWith(bytes, "block", readBlock);

// ---------------------------------------------------------------------------
// Receipt

/** Writes a receipt in its frozen field order. */
export function writeReceipt(w: Writer, rc: Receipt): void {
  w.fixed(rc.txHash, HASH_SIZE, "tx_hash");
  w.u8(discriminant(RECEIPT_STATUSES, rc.status, "status"));
  w.varint(rc.cyclesUsed, "cycles_used");
  w.varint(rc.cellsUsed, "cells_used");
  w.u64be(rc.feePaid, "fee_paid");
  w.bytes(rc.returnData, "return_data");
  w.option(rc.error !== null);
  if (rc.error !== null) w.string(rc.error, "error");
  w.len(rc.events.length, "events");
  rc.events.forEach((e, i) => {
    w.fixed(e.emitter, ADDRESS_SIZE, `events[${i}].emitter`);
    w.bytes(e.topic, `events[${i}].topic`);
    w.bytes(e.data, `events[${i}].data`);
  });
}

/** Reads a receipt (unknown status is `UNKNOWN_VARIANT`). */
export function readReceipt(r: Reader): Receipt {
  const txHash = r.fixed(HASH_SIZE, "tx_hash");
  const status = variant(RECEIPT_STATUSES, r, "status");
  const cyclesUsed = r.varint("cycles_used");
  const cellsUsed = r.varint("cells_used");
  const feePaid = r.u64be("fee_paid");
  const returnData = r.bytes("return_data");
  const error = r.option("error") ? r.string("error") : null;
  const n = r.len("events", ADDRESS_SIZE + 2);
  const events: Event[] = [];
  for (let i = 0; i < n; i++) {
    try {
      events.push({
        emitter: r.fixed(ADDRESS_SIZE, "emitter"),
        topic: r.bytes("topic"),
        data: r.bytes("data"),
      });
    } catch (err) {
      throw err instanceof CodecError ? inField(err, `events[${i}]`) : err;
    }
  }
  return { txHash, status, cyclesUsed, cellsUsed, feePaid, returnData, error, events };
}

/** Canonical bytes of a receipt (the receipt-hash preimage). */
export const encodeReceipt = (rc: Receipt): Uint8Array => encodeWith((w) => writeReceipt(w, rc));
/** Strictly decodes a receipt (no trailing bytes). */
export const decodeReceipt = (bytes: Uint8Array): Receipt => decodeWith(bytes, "receipt", readReceipt);

/** Receipt hash = keccak256(encode(receipt)). */
export function receiptHash(rc: Receipt): Hash32 {
  return keccak_256(encodeReceipt(rc));
}

// ---------------------------------------------------------------------------
// Certificate

/** Writes a certificate in its frozen field order. */
export function writeCertificate(w: Writer, c: Certificate): void {
  w.u8(discriminant(CERTIFICATE_KINDS, c.kind, "kind"));
  w.fixed(c.blockHash, HASH_SIZE, "block_hash");
  w.varint(c.height, "height");
  writeRound(w, c.round);
  w.bytes(c.aggregatedSignature, "aggregated_signature");
  w.bytes(c.signerBitmap, "signer_bitmap");
}

/** Reads a certificate (unknown kind is `UNKNOWN_VARIANT`). */
export function readCertificate(r: Reader): Certificate {
  return {
    kind: variant(CERTIFICATE_KINDS, r, "kind"),
    blockHash: r.fixed(HASH_SIZE, "block_hash"),
    height: r.varint("height"),
    round: readRound(r),
    aggregatedSignature: r.bytes("aggregated_signature"),
    signerBitmap: r.bytes("signer_bitmap"),
  };
}

/** Canonical bytes of a certificate. */
export const encodeCertificate = (c: Certificate): Uint8Array => encodeWith((w) => writeCertificate(w, c));
/** Strictly decodes a certificate (no trailing bytes). */
export const decodeCertificate = (bytes: Uint8Array): Certificate =>
  decodeWith(bytes, "certificate", readCertificate);

// ---------------------------------------------------------------------------
// Merkle roots

const EMPTY_ROOT = new Uint8Array(32);

/** Leaf hash: keccak256(0x00 ‖ item). */
export function merkleLeaf(item: Hash32): Hash32 {
  const pre = new Uint8Array(33);
  pre.set(item, 1);
  return keccak_256(pre);
}

/** Inner node hash: keccak256(0x01 ‖ left ‖ right). */
export function merkleNode(left: Hash32, right: Hash32): Hash32 {
  const pre = new Uint8Array(65);
  pre[0] = 1;
  pre.set(left, 1);
  pre.set(right, 33);
  return keccak_256(pre);
}

/**
 * Binary keccak Merkle root with domain-separated leaves and nodes; an odd node
 * is promoted unchanged; the root of no items is 32 zero bytes.
 */
export function merkleRoot(items: readonly Hash32[]): Hash32 {
  if (items.length === 0) return EMPTY_ROOT.slice();
  let level = items.map((x) => {
    if (x.length !== HASH_SIZE)
      throw new CodecError("INVALID_VALUE", "merkle item", "expected exactly 32 bytes");
    return merkleLeaf(x);
  });
  while (level.length > 1) {
    const next: Hash32[] = [];
    for (let i = 0; i + 1 < level.length; i += 2)
      next.push(merkleNode(level[i] as Hash32, level[i + 1] as Hash32));
    if (level.length % 2 === 1) next.push(level[level.length - 1] as Hash32);
    level = next;
  }
  return level[0] as Hash32;
}

/** tx_root = merkle root of the transactions' digests (signing hashes). */
export function txRoot(transactions: readonly Transaction[]): Hash32 {
  return merkleRoot(transactions.map((tx) => signingHash(tx)));
}

/** receipts_root = merkle root of the receipts' hashes. */
export function receiptsRoot(receipts: readonly Receipt[]): Hash32 {
  return merkleRoot(receipts.map(receiptHash));
}
