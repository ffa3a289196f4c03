/**
 * Test doubles shared by the voter tests: a genesis digest, a block whose digest is the SHA-256
 * of its JSON, an {@link Application} that builds such blocks on the view before its own, the
 * wall clock as a {@link Clock}, and the JSON-lines codec the kill/restart test speaks with its
 * child process (byte arrays as `{"$b": hex}`).
 *
 * Only tests import this module.
 */
import { createHash } from "node:crypto";
import {
  type Application,
  type Certificate,
  type Clock,
  DEFAULT_TIMEOUTS,
  type Proposal,
  type Round,
  type VoterConfig,
} from "../src/index.ts";

/** The genesis digest of every test chain. */
export const GENESIS = "00".repeat(32);

/**
 * The config of validator `me` voting in epoch 0 from genesis (all-zero seed), with
 * {@link DEFAULT_TIMEOUTS}; `extra` overrides any field.
 */
export function genesisVoterConfig(me: number, extra: Partial<VoterConfig> = {}): VoterConfig {
  return {
    me,
    epoch: 0,
    genesisSeed: new Uint8Array(32),
    finalized: { view: 0, digest: GENESIS, height: 0 },
    ...DEFAULT_TIMEOUTS,
    ...extra,
  };
}

/** Short timeouts for voters that run on the wall clock (the kill/restart test and its child). */
export const WALL_CLOCK_TIMEOUTS = {
  leaderTimeoutMs: 300,
  notarizationTimeoutMs: 600,
  nullifyRetryMs: 1_000,
  maxViewsAhead: 256,
} as const;

/** A test block: `tag` tells blocks of one view apart (a proposer's own blocks say "own"). */
export interface TestBlock {
  readonly view: number;
  readonly height: number;
  readonly parent: string;
  readonly tag?: string;
}

/** The digest of a block: SHA-256 (hex) of its JSON. */
export const digestOf = (b: object): string => createHash("sha256").update(JSON.stringify(b)).digest("hex");

/**
 * An application of {@link TestBlock}s whose parent is always the view before theirs
 * (`parentView = view - 1`); it verifies everything, serves no finalized blocks, and records
 * the parent certificate of each proposal it made and the digest of each block finalized.
 */
export class LinearApp implements Application {
  readonly genesis = GENESIS;
  /** digests of the finalized blocks, in order */
  readonly final: string[] = [];
  /** the parent certificate the voter handed each proposal (null: none) */
  readonly parentCerts: Array<Certificate | null> = [];

  propose(
    round: Round,
    parent: { view: number; digest: string; height: number },
    _beacon?: Uint8Array,
    parentCertificate?: Certificate | null,
  ) {
    this.parentCerts.push(parentCertificate ?? null);
    const block: TestBlock = {
      view: round.view,
      height: parent.height + 1,
      parent: parent.digest,
      tag: "own",
    };
    return { digest: digestOf(block), block };
  }
  digest(block: unknown): string {
    return digestOf(block as TestBlock);
  }
  link(block: unknown) {
    const b = block as TestBlock;
    return { view: b.view, height: b.height, parentView: b.view - 1, parent: b.parent };
  }
  verify(): boolean {
    return true;
  }
  finalizedBlock(): unknown | null {
    return null;
  }
  finalized(proposal: Proposal, _block: unknown, _cert: Certificate | null): void {
    this.final.push(proposal.payload);
  }
}

/** The wall clock (`performance.now`, `setTimeout`) for voters that run in real time. */
export const wallClock: Clock = {
  now: () => performance.now(),
  schedule(at, fn) {
    const t = setTimeout(fn, Math.max(0, at - performance.now()));
    return () => clearTimeout(t);
  },
};

/** One JSON line (no newline) of `value`, byte arrays written as `{"$b": hex}`. */
export function encodeLine(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    // `this[k]` is the value before Buffer#toJSON ran
    const raw = this[k];
    return raw instanceof Uint8Array ? { $b: Buffer.from(raw).toString("hex") } : v;
  });
}

/** Parses a line of {@link encodeLine}, restoring the byte arrays. */
export function decodeLine(line: string): unknown {
  return JSON.parse(line, (_k, v) =>
    v !== null && typeof v === "object" && typeof v.$b === "string"
      ? Uint8Array.from(Buffer.from(v.$b, "hex"))
      : v,
  );
}

/** A block that links to its parent's view and names the process that proposed it. */
export interface SignedByBlock {
  readonly view: number;
  readonly height: number;
  readonly parentView: number;
  readonly parent: string;
  /** the proposer (a restarted leader that re-proposed in its view would sign another block) */
  readonly by: string;
}

/**
 * An application of {@link SignedByBlock}s proposed as `by` on the voter's parent; it verifies
 * everything, serves the blocks finalized so far and reports each finalized proposal to `onFinalized`.
 */
export function signedByApp(by: string, onFinalized: (proposal: Proposal) => void = () => {}): Application {
  const blocks = new Map<string, SignedByBlock>();
  return {
    genesis: GENESIS,
    propose(round: Round, parent: { view: number; digest: string; height: number }) {
      const block: SignedByBlock = {
        view: round.view,
        height: parent.height + 1,
        parentView: parent.view,
        parent: parent.digest,
        by,
      };
      return { digest: digestOf(block), block };
    },
    digest: (b: unknown) => digestOf(b as SignedByBlock),
    link: (b: unknown) => {
      const x = b as SignedByBlock;
      return { view: x.view, height: x.height, parentView: x.parentView, parent: x.parent };
    },
    verify: () => true,
    finalizedBlock: (d: string) => blocks.get(d) ?? null,
    finalized: (p: Proposal, b: unknown) => {
      blocks.set(p.payload, b as SignedByBlock);
      onFinalized(p);
    },
  };
}
