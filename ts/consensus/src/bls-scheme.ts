/**
 * The production signing scheme: BLS12-381 (MinPk) through the native addon (crates/bls,
 * docs/bls.md).
 *
 * - A `notarize` / `finalize` vote is the validator's signature over
 *   `blsVoteMessage(block_hash, height, round)` in the `notarize` / `finalize` domain (spec
 *   §6.1 `block_hash ‖ height ‖ round`); a `nullify` vote signs `Round` in the `nullify`
 *   domain. Every namespace is bound to the chain id.
 * - `notarize` and `nullify` votes also carry the validator's partial signature of the round's
 *   seed (threshold BLS, `seed` domain, message `Round`). Vote signature bytes:
 *   `sig(96) ‖ partial` for notarize/nullify (partial = `varint index ‖ sig(96)`, index =
 *   the signer's share index: its validator index unless `shareIndices` maps it), `sig(96)`
 *   for finalize.
 * - A certificate is `(signer bitmap, aggregate signature)` (§6.1 QC; bitmap bit i%8 of byte
 *   i/8) plus, for notarizations and nullifications, the round's seed: the 96-byte threshold
 *   signature recovered from the quorum's partials. There is exactly one valid seed per round,
 *   so a notarization and a nullification of the same round carry the same seed.
 *
 * Keys enter the scheme only through registrations with verified proofs of possession
 * (rogue-key safety of same-message aggregation). Verification never throws: malformed or
 * invalid input is `false`.
 */
import { createRequire } from "node:module";
import { quorum, type SigningScheme } from "./scheme.ts";
import {
  type Certificate,
  type Proposal,
  proposalKey,
  type Round,
  type Vote,
  type VoteKind,
} from "./types.ts";

/** The subset of `@cowboy/native` this scheme uses (the addon is loaded on first use). */
type Native = typeof import("@cowboy/native");
type NativeValidatorSet = InstanceType<Native["BlsValidatorSet"]>;
type NativeGroup = InstanceType<Native["BlsGroup"]>;

let native: Native | undefined;

/** Loads the addon once; throws with a clear message if it has not been built. */
export function loadNative(): Native {
  if (native === undefined) {
    try {
      native = createRequire(import.meta.url)("@cowboy/native") as Native;
    } catch (err) {
      throw new Error(
        `the native addon (@cowboy/native) is not built; run \`bash scripts/task.sh build-native\`: ${(err as Error).message}`,
      );
    }
  }
  return native;
}

/** Length of a BLS signature (compressed G2). */
export const BLS_SIGNATURE_BYTES = 96;
/** Length of a BLS public key (compressed G1). */
export const BLS_PUBLIC_KEY_BYTES = 48;

/** The local validator's secrets. */
export interface BlsSigner {
  /** validator index */
  readonly index: number;
  /** 32-byte BLS secret key */
  readonly secretKey: Uint8Array;
  /**
   * threshold key share (`varint index ‖ scalar`), whose index must equal the validator's share
   * index (`index` itself unless the scheme has a {@link BlsSchemeConfig.shareIndices} map)
   */
  readonly share: Uint8Array;
}

export interface BlsSchemeConfig {
  /** chain id every namespace is bound to */
  readonly chainId: bigint;
  /** 48-byte public keys in validator-index order */
  readonly publicKeys: readonly Uint8Array[];
  /** proofs of possession, one per key; verified here (omit only for keys verified at registration) */
  readonly proofs?: readonly Uint8Array[];
  /** the epoch's threshold public polynomial (`BlsGroup` bytes: a DKG output or `blsThresholdDeal`) */
  readonly group: Uint8Array;
  /** the local validator, or null for a verifier-only scheme (full nodes, block sync) */
  readonly signer?: BlsSigner | null;
  /**
   * Optional: the share index of each validator (consensus index → index of its share in
   * `group`), e.g. `EpochGroup.members[i].shareIndex` when the group comes from a DKG whose
   * players are key-sorted while the set is address-ordered. Must be a permutation of
   * `0..n-1`. Absent: the identity (share index = validator index, as a dealer deals).
   */
  readonly shareIndices?: readonly number[];
}

const DOMAIN: Record<VoteKind, string> = { notarize: "notarize", nullify: "nullify", finalize: "finalize" };
const HEX32 = /^[0-9a-f]{64}$/;

function buf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads the LEB128 varint at the start of `bytes`: [value, length] or null if malformed. */
function readVarint(bytes: Uint8Array): [number, number] | null {
  let value = 0;
  for (let i = 0; i < 5 && i < bytes.length; i++) {
    const b = bytes[i] as number;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) {
      // canonical: no trailing zero group
      if (i > 0 && b === 0) return null;
      return [value, i + 1];
    }
  }
  return null;
}

function writeVarint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    let b = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) b |= 0x80;
    out.push(b);
  } while (v > 0);
  return Uint8Array.from(out);
}

export class BlsScheme implements SigningScheme {
  readonly participants: number;
  readonly chainId: bigint;
  /** the 48-byte group public key seeds verify against */
  readonly groupPublicKey: Buffer;
  private readonly n: Native;
  private readonly set: NativeValidatorSet;
  private readonly group: NativeGroup;
  private readonly publicKeys: readonly Buffer[];
  private readonly signer: BlsSigner | null;
  /** consensus index → share index (see {@link BlsSchemeConfig.shareIndices}) */
  private readonly shareIndex: readonly number[];

  constructor(cfg: BlsSchemeConfig) {
    this.n = loadNative();
    this.chainId = cfg.chainId;
    this.publicKeys = cfg.publicKeys.map((k) => Buffer.from(k));
    this.participants = this.publicKeys.length;
    this.set =
      cfg.proofs === undefined
        ? new this.n.BlsValidatorSet([...this.publicKeys])
        : this.n.BlsValidatorSet.fromRegistrations(
            cfg.chainId,
            [...this.publicKeys],
            cfg.proofs.map((p) => Buffer.from(p)),
          );
    this.group = new this.n.BlsGroup(Buffer.from(cfg.group));
    if (this.group.total !== this.participants)
      throw new RangeError(
        `the threshold group has ${this.group.total} shares for ${this.participants} validators`,
      );
    if (this.group.threshold !== quorum(this.participants))
      throw new RangeError(
        `threshold ${this.group.threshold} is not the quorum ${quorum(this.participants)}`,
      );
    this.groupPublicKey = this.group.publicKey;
    const map = cfg.shareIndices ?? this.publicKeys.map((_, i) => i);
    const seen = new Set<number>();
    if (map.length !== this.participants)
      throw new RangeError(`${map.length} share indices for ${this.participants} validators`);
    for (const i of map) {
      if (!Number.isInteger(i) || i < 0 || i >= this.participants || seen.has(i))
        throw new RangeError("the share indices are not a permutation of the validator indices");
      seen.add(i);
    }
    this.shareIndex = [...map];
    this.signer = cfg.signer ?? null;
    if (this.signer !== null) {
      const s = this.signer;
      const pk = this.n.blsPublicKey(buf(s.secretKey));
      if (!pk.equals(this.publicKeys[s.index] ?? Buffer.alloc(0)))
        throw new RangeError(`the secret key is not validator ${s.index}'s key`);
      const idx = readVarint(s.share);
      if (idx === null || idx[0] !== this.shareIndex[s.index])
        throw new RangeError(`the key share is not validator ${s.index}'s share`);
    }
  }

  /** The message a vote of `kind` on `round` (and `proposal`) signs, or null if it cannot be encoded. */
  message(kind: VoteKind, round: Round, proposal: Proposal | null): Buffer | null {
    if (!Number.isSafeInteger(round.epoch) || !Number.isSafeInteger(round.view)) return null;
    if (round.epoch < 0 || round.view < 0) return null;
    if (kind === "nullify")
      return proposal === null ? this.n.blsRoundBytes(BigInt(round.epoch), BigInt(round.view)) : null;
    if (proposal === null || !HEX32.test(proposal.payload)) return null;
    if (!Number.isSafeInteger(proposal.height) || proposal.height < 0) return null;
    if (proposal.round.epoch !== round.epoch || proposal.round.view !== round.view) return null;
    return this.n.blsVoteMessage(
      Buffer.from(proposal.payload, "hex"),
      BigInt(proposal.height),
      BigInt(round.epoch),
      BigInt(round.view),
    );
  }

  private seedMessage(round: Round): Buffer {
    return this.n.blsSeedMessage(BigInt(round.epoch), BigInt(round.view));
  }

  sign(signer: number, kind: VoteKind, round: Round, proposal: Proposal | null): Uint8Array {
    const me = this.signer;
    if (me === null || me.index !== signer) throw new Error(`this scheme cannot sign as validator ${signer}`);
    const msg = this.message(kind, round, proposal);
    if (msg === null) throw new RangeError(`cannot sign a malformed ${kind} vote`);
    const sig = this.n.blsSign(buf(me.secretKey), DOMAIN[kind], this.chainId, msg);
    if (kind === "finalize") return sig;
    const partial = this.n.blsSeedPartialSign(
      buf(me.share),
      this.chainId,
      BigInt(round.epoch),
      BigInt(round.view),
    );
    return Buffer.concat([sig, partial]);
  }

  /** Splits a vote signature into its vote signature and seed partial; null if malformed. */
  private split(vote: Vote): { sig: Buffer; partial: Buffer | null } | null {
    const bytes = buf(vote.signature);
    if (vote.kind === "finalize") {
      return bytes.length === BLS_SIGNATURE_BYTES ? { sig: bytes, partial: null } : null;
    }
    const partial = bytes.subarray(BLS_SIGNATURE_BYTES);
    const idx = readVarint(partial);
    if (
      idx === null ||
      idx[0] !== this.shareIndex[vote.signer] ||
      partial.length !== idx[1] + BLS_SIGNATURE_BYTES
    )
      return null;
    return { sig: bytes.subarray(0, BLS_SIGNATURE_BYTES), partial };
  }

  verifyVote(vote: Vote): boolean {
    if (!Number.isInteger(vote.signer) || vote.signer < 0 || vote.signer >= this.participants) return false;
    if (!(vote.signature instanceof Uint8Array)) return false;
    const msg = this.message(vote.kind, vote.round, vote.proposal);
    const parts = msg === null ? null : this.split(vote);
    if (msg === null || parts === null) return false;
    try {
      const key = this.publicKeys[vote.signer] as Buffer;
      if (!this.n.blsVerify(key, DOMAIN[vote.kind], this.chainId, msg, parts.sig)) return false;
      if (parts.partial === null) return true;
      return this.group.verifyPartial("seed", this.chainId, this.seedMessage(vote.round), parts.partial);
    } catch {
      return false;
    }
  }

  /**
   * Batch check (positions of the invalid votes). Votes of one kind, round and proposal are
   * checked together: the vote signatures as one aggregate against their keys (bisected on
   * failure) and the seed partials as one batch; anything else falls back to one by one.
   */
  verifyVotes(votes: readonly Vote[]): number[] {
    const first = votes[0];
    if (first === undefined) return [];
    const msg = this.message(first.kind, first.round, first.proposal);
    const same = votes.every(
      (v) =>
        v.kind === first.kind &&
        v.round.epoch === first.round.epoch &&
        v.round.view === first.round.view &&
        ((v.proposal === null && first.proposal === null) ||
          (v.proposal !== null &&
            first.proposal !== null &&
            proposalKey(v.proposal) === proposalKey(first.proposal))),
    );
    if (msg === null || !same || votes.length < 2)
      return votes.flatMap((v, i) => (this.verifyVote(v) ? [] : [i]));
    const invalid = new Set<number>();
    const ok: Array<{ pos: number; vote: Vote; sig: Buffer; partial: Buffer | null }> = [];
    for (const [pos, vote] of votes.entries()) {
      const parts =
        Number.isInteger(vote.signer) &&
        vote.signer >= 0 &&
        vote.signer < this.participants &&
        vote.signature instanceof Uint8Array
          ? this.split(vote)
          : null;
      if (parts === null) invalid.add(pos);
      else ok.push({ pos, vote, ...parts });
    }
    if (ok.length === 0) return [...invalid].sort((a, b) => a - b);
    try {
      const badSigs = this.set.verifyVotes(
        DOMAIN[first.kind],
        this.chainId,
        msg,
        ok.map((o) => o.vote.signer),
        ok.map((o) => o.sig),
      );
      for (const i of badSigs) invalid.add((ok[i] as { pos: number }).pos);
      if (first.kind !== "finalize") {
        const badPartials = this.group.findInvalidPartials(
          "seed",
          this.chainId,
          this.seedMessage(first.round),
          ok.map((o) => o.partial as Buffer),
        );
        for (const i of badPartials) invalid.add((ok[i] as { pos: number }).pos);
      }
    } catch {
      // malformed encodings somewhere in the batch: decide vote by vote
      return votes.flatMap((v, i) => (this.verifyVote(v) ? [] : [i]));
    }
    return [...invalid].sort((a, b) => a - b);
  }

  assemble(votes: readonly Vote[]): Certificate {
    const first = votes[0];
    if (first === undefined) throw new Error("assemble: no votes");
    const bySigner = new Map<number, Vote>();
    for (const v of votes) {
      if (v.kind !== first.kind || v.round.view !== first.round.view || v.round.epoch !== first.round.epoch)
        throw new Error("assemble: votes of different kinds or rounds");
      if ((v.proposal === null) !== (first.proposal === null)) throw new Error("assemble: mixed proposals");
      if (v.proposal !== null && proposalKey(v.proposal) !== proposalKey(first.proposal as Proposal))
        throw new Error("assemble: votes for different proposals");
      bySigner.set(v.signer, v);
    }
    if (bySigner.size < quorum(this.participants)) throw new Error("assemble: fewer votes than a quorum");
    const indices = [...bySigner.keys()].sort((a, b) => a - b);
    const sigs: Buffer[] = [];
    const partials: Buffer[] = [];
    for (const i of indices) {
      const parts = this.split(bySigner.get(i) as Vote);
      if (parts === null) throw new Error(`assemble: malformed vote signature of validator ${i}`);
      sigs.push(parts.sig);
      if (parts.partial !== null) partials.push(parts.partial);
    }
    const cert = this.set.assemble(indices, sigs);
    // votes reach assemble only after verifyVote, so the partials are valid
    const seed = first.kind === "finalize" ? null : this.group.recover(partials);
    return {
      kind: first.kind,
      round: first.round,
      proposal: first.proposal,
      signers: cert.bitmap,
      signature: cert.signature,
      seed,
    };
  }

  verifyCertificate(cert: Certificate): boolean {
    if (!(cert.signers instanceof Uint8Array) || !(cert.signature instanceof Uint8Array)) return false;
    const msg = this.message(cert.kind, cert.round, cert.proposal);
    if (msg === null || cert.signature.length !== BLS_SIGNATURE_BYTES) return false;
    try {
      if (
        !this.set.verifyCertificate(
          DOMAIN[cert.kind],
          this.chainId,
          msg,
          buf(cert.signers),
          buf(cert.signature),
        )
      )
        return false;
      if (cert.kind === "finalize") return cert.seed === null;
      return cert.seed !== null && this.verifySeed(cert.round, cert.seed);
    } catch {
      return false;
    }
  }

  /** True if `seed` (96 bytes) is the threshold signature of `round`'s seed. */
  verifySeed(round: Round, seed: Uint8Array): boolean {
    if (!(seed instanceof Uint8Array) || seed.length !== BLS_SIGNATURE_BYTES) return false;
    try {
      return this.n.blsVerify(this.groupPublicKey, "seed", this.chainId, this.seedMessage(round), buf(seed));
    } catch {
      return false;
    }
  }
}

/** Keys and a dealt threshold sharing for a test network or localnet (never for a real network). */
export interface BlsDevnetKeys {
  readonly chainId: bigint;
  readonly secretKeys: readonly Buffer[];
  readonly publicKeys: readonly Buffer[];
  readonly proofs: readonly Buffer[];
  readonly group: Buffer;
  readonly shares: readonly Buffer[];
}

/**
 * Deterministic keys for `n` validators derived from `seed` (≥ 32 bytes of secret input) with
 * a trusted-dealer threshold sharing (docs/bls.md §6: devnets only; real networks run the DKG).
 */
export function blsDevnetKeys(n: number, chainId: bigint, seed: Uint8Array): BlsDevnetKeys {
  const x = loadNative();
  if (seed.length < 32) throw new RangeError("the devnet seed must be at least 32 bytes");
  const secretKeys = Array.from({ length: n }, (_, i) =>
    x.blsKeygen(Buffer.concat([Buffer.from(seed), Buffer.from("|validator|"), writeVarint(i)])),
  );
  const publicKeys = secretKeys.map((sk) => x.blsPublicKey(sk));
  const proofs = secretKeys.map((sk) => x.blsProofOfPossession(sk, chainId));
  const { group, shares } = x.blsThresholdDeal(Buffer.concat([Buffer.from(seed), Buffer.from("|group")]), n);
  return { chainId, secretKeys, publicKeys, proofs, group, shares };
}

/** One scheme per validator over devnet keys (each can sign only as itself). */
export function blsDevnetSchemes(keys: BlsDevnetKeys): BlsScheme[] {
  return keys.secretKeys.map(
    (secretKey, index) =>
      new BlsScheme({
        chainId: keys.chainId,
        publicKeys: keys.publicKeys,
        proofs: keys.proofs,
        group: keys.group,
        signer: { index, secretKey, share: keys.shares[index] as Buffer },
      }),
  );
}
