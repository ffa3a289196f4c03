/**
 * Durable signing journal: every vote this validator signs is appended and fsynced BEFORE the
 * voter sends it (the {@link Voter} calls `append` before `broadcast`), so after a crash the
 * restarted voter knows everything it may have sent and never signs a conflicting vote
 * (second notarize in a view, finalize after nullify, second finalize).
 *
 * File format: a sequence of records `len:u32be ‖ check:4 ‖ body`, where `check` is the first
 * four bytes of SHA-256(body) and `body` is the UTF-8 JSON of a vote (signature as hex) or of
 * a certificate (`"c":1`, signer bitmap, aggregate and seed as hex). Certificates are written
 * without their own fsync (they are public and verifiable; the next vote's fsync covers them).
 * A torn or corrupt tail (a crash in the middle of a write) is cut at the last whole record
 * when the journal is opened; records before it are never rewritten except by {@link
 * FileJournal.prune}, which writes a new file and renames it over the old one.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import type { Certificate, Proposal, Vote, VoteKind } from "./types.ts";
import type { Journal } from "./voter.ts";

const KINDS: readonly VoteKind[] = ["notarize", "nullify", "finalize"];
const HEADER = 8;
/** Records larger than this are treated as corruption (a vote is well under 1 KiB). */
const MAX_RECORD = 64 * 1024;

/** Thrown when the journal file cannot be used; `code` is stable. */
export class JournalError extends Error {
  readonly code: "JOURNAL_IO" | "JOURNAL_BAD_VOTE";
  constructor(code: JournalError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JournalError";
    this.code = code;
  }
}

function check(body: Uint8Array): Buffer {
  return createHash("sha256").update(body).digest().subarray(0, 4);
}

function encodeVote(v: Vote): Buffer {
  return Buffer.from(
    JSON.stringify({
      k: v.kind,
      e: v.round.epoch,
      v: v.round.view,
      p: v.proposal,
      s: v.signer,
      g: Buffer.from(v.signature).toString("hex"),
    }),
  );
}

function isProposal(p: unknown): p is Proposal {
  if (typeof p !== "object" || p === null) return false;
  const o = p as Record<string, unknown>;
  const r = o.round as Record<string, unknown> | undefined;
  return (
    typeof r === "object" &&
    r !== null &&
    Number.isSafeInteger(r.epoch) &&
    Number.isSafeInteger(r.view) &&
    Number.isSafeInteger(o.height) &&
    Number.isSafeInteger(o.parentView) &&
    typeof o.parent === "string" &&
    typeof o.payload === "string"
  );
}

function decodeVote(body: Buffer): Vote | null {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
  const kind = KINDS.find((k) => k === o.k);
  if (kind === undefined || !Number.isSafeInteger(o.e) || !Number.isSafeInteger(o.v)) return null;
  if (!Number.isSafeInteger(o.s) || typeof o.g !== "string" || !/^(?:[0-9a-f]{2})*$/.test(o.g)) return null;
  const proposal = o.p === null ? null : isProposal(o.p) ? o.p : undefined;
  if (proposal === undefined || (kind === "nullify") !== (proposal === null)) return null;
  return {
    kind,
    round: { epoch: o.e as number, view: o.v as number },
    proposal,
    signer: o.s as number,
    signature: Uint8Array.from(Buffer.from(o.g, "hex")),
  };
}

const HEX = /^(?:[0-9a-f]{2})*$/;

function encodeCertificate(c: Certificate): Buffer {
  return Buffer.from(
    JSON.stringify({
      c: 1,
      k: c.kind,
      e: c.round.epoch,
      v: c.round.view,
      p: c.proposal,
      s: Buffer.from(c.signers).toString("hex"),
      g: Buffer.from(c.signature).toString("hex"),
      d: c.seed === null ? null : Buffer.from(c.seed).toString("hex"),
    }),
  );
}

function decodeCertificate(o: Record<string, unknown>): Certificate | null {
  const kind = KINDS.find((k) => k === o.k);
  if (kind === undefined || !Number.isSafeInteger(o.e) || !Number.isSafeInteger(o.v)) return null;
  if (typeof o.s !== "string" || !HEX.test(o.s) || typeof o.g !== "string" || !HEX.test(o.g)) return null;
  if (o.d !== null && (typeof o.d !== "string" || !HEX.test(o.d))) return null;
  const proposal = o.p === null ? null : isProposal(o.p) ? o.p : undefined;
  if (proposal === undefined || (kind === "nullify") !== (proposal === null)) return null;
  return {
    kind,
    round: { epoch: o.e as number, view: o.v as number },
    proposal,
    signers: Uint8Array.from(Buffer.from(o.s, "hex")),
    signature: Uint8Array.from(Buffer.from(o.g, "hex")),
    seed: o.d === null ? null : Uint8Array.from(Buffer.from(o.d as string, "hex")),
  };
}

/** Parses records; returns the votes, the certificates and the byte length of the valid prefix. */
function parse(bytes: Buffer): { votes: Vote[]; certificates: Certificate[]; valid: number } {
  const votes: Vote[] = [];
  const certificates: Certificate[] = [];
  let pos = 0;
  while (bytes.length - pos >= HEADER) {
    const len = bytes.readUInt32BE(pos);
    if (len === 0 || len > MAX_RECORD || bytes.length - pos - HEADER < len) break;
    const body = bytes.subarray(pos + HEADER, pos + HEADER + len);
    if (!check(body).equals(bytes.subarray(pos + 4, pos + HEADER))) break;
    if (body[0] === 0x7b && body.subarray(0, 6).toString("latin1") === '{"c":1') {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      } catch {
        break;
      }
      const cert = decodeCertificate(o);
      if (cert === null) break;
      certificates.push(cert);
    } else {
      const vote = decodeVote(body);
      if (vote === null) break;
      votes.push(vote);
    }
    pos += HEADER + len;
  }
  return { votes, certificates, valid: pos };
}

function record(v: Vote | Certificate): Buffer {
  const body = "signer" in v ? encodeVote(v) : encodeCertificate(v);
  const head = Buffer.alloc(HEADER);
  head.writeUInt32BE(body.length, 0);
  check(body).copy(head, 4);
  return Buffer.concat([head, body]);
}

function fsyncDir(path: string): void {
  const fd = openSync(dirname(path), "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A {@link Journal} in one append-only file, fsynced on every append. */
export class FileJournal implements Journal {
  readonly path: string;
  private fd: number;
  private votes: Vote[];
  private certificates: Certificate[];
  /** bytes cut from a torn tail when the file was opened (0 for a clean file) */
  readonly repairedBytes: number;

  /** Opens (creating if needed) the journal at `path`, cutting a torn tail. */
  constructor(path: string) {
    this.path = path;
    try {
      this.fd = openSync(path, "a+");
      fsyncDir(path);
      const bytes = readFileSync(path);
      const { votes, certificates, valid } = parse(bytes);
      this.votes = votes;
      this.certificates = certificates;
      this.repairedBytes = bytes.length - valid;
      if (this.repairedBytes > 0) {
        ftruncateSync(this.fd, valid);
        fsyncSync(this.fd);
      }
    } catch (err) {
      throw new JournalError("JOURNAL_IO", `cannot open the signing journal ${path}: ${String(err)}`, {
        cause: err,
      });
    }
  }

  /** Appends `vote` and fsyncs before returning; throws `JOURNAL_IO` (the vote must then not be sent). */
  append(vote: Vote): void {
    const bytes = record(vote);
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
      fsyncSync(this.fd);
    } catch (err) {
      throw new JournalError("JOURNAL_IO", `cannot append to the signing journal: ${String(err)}`, {
        cause: err,
      });
    }
    this.votes.push(vote);
  }

  load(): readonly Vote[] {
    return this.votes;
  }

  /** Appends a certificate (no fsync of its own; see the module comment); throws `JOURNAL_IO`. */
  appendCertificate(cert: Certificate): void {
    const bytes = record(cert);
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    } catch (err) {
      throw new JournalError("JOURNAL_IO", `cannot append to the signing journal: ${String(err)}`, {
        cause: err,
      });
    }
    this.certificates.push(cert);
  }

  loadCertificates(): readonly Certificate[] {
    return this.certificates;
  }

  /** Size of the file in bytes. */
  size(): number {
    return fstatSync(this.fd).size;
  }

  /**
   * Drops votes of earlier epochs and of views below `fromView` in `epoch`, atomically
   * (new file, fsync, rename, fsync of the directory). Only call it for views the node has
   * durably finalized: a vote that is dropped cannot protect against re-signing.
   */
  prune(epoch: number, fromView: number): void {
    const kept = (r: { round: { epoch: number; view: number } }) =>
      r.round.epoch > epoch || (r.round.epoch === epoch && r.round.view >= fromView);
    const keep = this.votes.filter(kept);
    const keepCerts = this.certificates.filter(kept);
    if (keep.length === this.votes.length && keepCerts.length === this.certificates.length) return;
    const tmp = `${this.path}.tmp`;
    try {
      const fd = openSync(tmp, "w");
      try {
        const bytes = Buffer.concat([...keep.map(record), ...keepCerts.map(record)]);
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.path);
      fsyncDir(this.path);
      closeSync(this.fd);
      this.fd = openSync(this.path, "a+");
    } catch (err) {
      throw new JournalError("JOURNAL_IO", `cannot prune the signing journal: ${String(err)}`, {
        cause: err,
      });
    }
    this.votes = keep;
    this.certificates = keepCerts;
  }

  close(): void {
    closeSync(this.fd);
  }
}
