/**
 * The validator's configuration: `cowboyd --config FILE` (docs/validator.md). Three JSON
 * files, so that one network of many machines shares the public part and each machine keeps
 * its secrets to itself:
 *
 * - the **config file** (one per validator): data directory, the paths of the other files,
 *   listen addresses, bootstrap peers, RPC, metrics, timeouts, log level; relative paths are
 *   resolved against the config file's directory;
 * - the **network file** (public, identical everywhere): the p2p chain name, the epoch-0
 *   validator set (address, BLS public key, proof of possession, libp2p peer id, stake, in
 *   validator-index order), the threshold public polynomial of the per-round seed and,
 *   optionally, the genesis DKG output whose group it is (`dkgOutput`: the chain then has a
 *   group per epoch, reshared when the set changes, and the node runs one voter per epoch);
 * - the **key file** (secret, one per validator): its index, BLS secret key, threshold share
 *   (of the genesis group; with a `dkgOutput` its share index is the key's position among the
 *   key-sorted players, optionally repeated as `shareIndex`) and the operator account's
 *   secp256k1 key (it signs the validator's transactions, such as submitted evidence and DKG
 *   logs). `index` and `blsShare` are optional: a key file of `cowboy validator keygen` holds
 *   only the two secret keys. Without `index` the node looks its BLS key up in the network
 *   file; a key the file does not list is a **joining validator**: the node follows the chain
 *   (syncs, verifies, serves RPC) and votes from the first epoch whose set and group hold the
 *   key (after `registerValidator` on chain and the resharing ceremony);
 *
 * plus the chain's `genesis.json` (the devnet's format). Byte strings are `0x` hex. Every
 * check failure is a {@link ValidatorConfigError} naming the file and the field.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { type BlsSigner, DEFAULT_VALIDATOR_PARAMS, type ValidatorParams } from "@cowboy/consensus";
import { addressFromSecretKey, bytesEqual, fromHex } from "@cowboy/sdk";
import { peerIdFromString } from "@libp2p/peer-id";
import { GENESIS_FILE, readGenesisFile } from "../devnet/genesis-file.ts";
import type { GenesisConfig } from "../stf/types.ts";

/** Version of the config file format this node reads. */
export const CONFIG_VERSION = 1;

/** The config file as written (see docs/validator.md). */
export interface ValidatorFileConfig {
  version: 1;
  /** the validator's data directory */
  dataDir: string;
  /** path of the chain's `genesis.json` */
  genesisFile: string;
  /** path of the network file ({@link NetworkFile}) */
  networkFile: string;
  /** path of this validator's key file ({@link KeyFile}) */
  keyFile: string;
  /** optional: refuse to start unless the genesis has this chain id */
  chainId?: string;
  p2p: { listen: string[]; bootstrap: string[] };
  rpc: { host: string; port: number };
  /** serve Prometheus metrics on the RPC server's `GET /metrics` (default true) */
  metrics?: boolean;
  timeouts?: {
    leaderMs?: number;
    notarizationMs?: number;
    nullifyRetryMs?: number;
    /** pacing: a leader proposes this long after entering its view (0 = unpaced) */
    blockTimeMs?: number;
  };
  logLevel?: string;
  /** TESTING ONLY: deliberate misbehaviour for fault tests; never set on a real network */
  faults?: { equivocate?: boolean };
}

/** One validator of the network file. */
export interface NetworkValidatorEntry {
  address: string;
  blsPublicKey: string;
  proofOfPossession: string;
  peerId: string;
  /** decimal string, units */
  stake: string;
}

/** The network file (public, shared by every validator). */
export interface NetworkFile {
  version: 1;
  chainName: string;
  /** threshold public polynomial of the seed (`BlsGroup` bytes) */
  group: string;
  /** optional: the genesis DKG output (`GenesisConfig.dkgOutput`) whose group `group` is */
  dkgOutput?: string;
  validators: NetworkValidatorEntry[];
  /** validator-set parameters stored in the genesis state (optional) */
  params?: NetworkParams;
}

/** The key file (secret). */
export interface KeyFile {
  version: 1;
  /** position in the network file; absent: looked up by BLS key (a key not listed there joins) */
  index?: number;
  blsSecretKey: string;
  /** share of the genesis group (network-file validators only) */
  blsShare?: string;
  /** optional: the share's index in the genesis group (must match the share's own prefix) */
  shareIndex?: number;
  operatorSecretKey: string;
}

/** One member of the validator set as the node uses it. */
export interface NetworkValidator {
  readonly address: Uint8Array;
  readonly blsPublicKey: Uint8Array;
  readonly proofOfPossession: Uint8Array;
  readonly peerId: string;
  readonly stake: bigint;
}

/** The genesis with its validator set and parameters from the network file. */
export type ValidatorGenesis = GenesisConfig;

/** Validator-set parameters a network file may set (the rest keep `DEFAULT_VALIDATOR_PARAMS`). */
export interface NetworkParams {
  epochBlocks?: number;
  unbondingBlocks?: number;
  jailBlocks?: number;
  slashBps?: number;
  downtimeWindow?: number;
  downtimeMaxMissed?: number;
  keepEpochs?: number;
  /** largest validator set (1..=MAX_VALIDATORS_LIMIT, checked at genesis) */
  maxValidators?: number;
  /** decimal string, units */
  minStake?: string;
}

/** Everything one validator process needs, checked. */
export interface ValidatorSettings {
  readonly dataDir: string;
  readonly genesis: ValidatorGenesis;
  readonly chainName: string;
  readonly validators: readonly NetworkValidator[];
  readonly group: Uint8Array;
  /** the genesis DKG output (also in `genesis.dkgOutput`), or null for a dealer-dealt devnet group */
  readonly dkgOutput: Uint8Array | null;
  /**
   * this validator's network-file index and BLS secrets; for a validator that is not in the
   * network file (`identity.networkIndex === null`) `index` is -1 and `share` is empty
   */
  readonly signer: BlsSigner;
  /** who this node is: operator address, BLS public key, network-file index (null: joining) */
  readonly identity: ValidatorIdentity;
  readonly operatorSecretKey: Uint8Array;
  readonly p2p: { readonly listen: readonly string[]; readonly bootstrap: readonly string[] };
  readonly rpc: { readonly host: string; readonly port: number };
  readonly metrics: boolean;
  readonly timeouts: {
    readonly leaderTimeoutMs: number;
    readonly notarizationTimeoutMs: number;
    readonly nullifyRetryMs: number;
    readonly minViewMs: number;
  };
  readonly logLevel: string;
  readonly faults: { readonly equivocate: boolean };
}

/** The node's validator identity (from the key file, checked against the network file). */
export interface ValidatorIdentity {
  /** the operator account (address of `operatorSecretKey`) */
  readonly address: Uint8Array;
  /** the BLS public key of `signer.secretKey` */
  readonly blsPublicKey: Uint8Array;
  /**
   * position in the network file, or null for a validator the file does not list: it joins
   * through the chain's registry (`registerValidator`) and announces its peer id on the
   * validator topic (ts/p2p announce.ts) instead of being listed with one
   */
  readonly networkIndex: number | null;
}

/** A config, network or key file is unreadable or invalid; `field` names the bad field. */
export class ValidatorConfigError extends Error {
  readonly code = "ERR_VALIDATOR_CONFIG";
  /** the file the error is about */
  readonly file: string;
  /** the offending field (a JSON path such as `p2p.listen[0]`), or "" for the whole file */
  readonly field: string;
  constructor(file: string, field: string, message: string) {
    super(field === "" ? `${file}: ${message}` : `${file}: ${field}: ${message}`);
    this.name = "ValidatorConfigError";
    this.file = file;
    this.field = field;
  }
}

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];
const MAX_VALIDATORS = 1_024;

/** Reads a JSON object from `path`. */
function readJson(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ValidatorConfigError(path, "", `cannot read the file (${(err as Error).message})`);
  }
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (err) {
    throw new ValidatorConfigError(path, "", `not valid JSON (${(err as Error).message})`);
  }
  if (typeof o !== "object" || o === null || Array.isArray(o))
    throw new ValidatorConfigError(path, "", "must hold a JSON object");
  return o as Record<string, unknown>;
}

/**
 * The shortest epoch (`params.epochBlocks`) in which a resharing ceremony can run on a chain with
 * a DKG group (`dkgOutput`). Epoch e's ceremony opens at the freeze point F = e·E + ⌊E/2⌋ and
 * takes dealer logs up to its last height L = (e+1)·E − 1, a window of W = L − F = ⌈E/2⌉ − 1
 * blocks after the one that opened it. The DKG driver (dkg.ts) deals when F is final; a dealer
 * that started with the ceremony closes dealing at the midpoint M = F + ⌊W/2⌋ at the latest.
 * Its log, submitted when M is final, must then be included in a block ≤ L, and the block after
 * M may already be proposed by then (the next leader builds on a notarized, not yet final,
 * parent). So the ceremony needs ⌊W/2⌋ ≥ 1 (a block for the acknowledgements) and
 * W − ⌊W/2⌋ ≥ 2 (two blocks for the log to land): W ≥ 3, i.e. E ≥ 7. With E ≤ 4 the driver
 * would close at F itself, before any acknowledgement, and every ceremony would fall back.
 *
 * This is a bound in blocks, not in time; two limits remain at the minimum (docs/consensus.md
 * "The shortest epoch"): (1) at E = 7 or 8 the acknowledgements must arrive within the one block
 * between F and M = F + 1 becoming final (a hello, a dealing and an acknowledgement: about two
 * network round trips), so a block time near 0 reveals most dealings; (2) a dealer that
 * (re)starts after F (at finalized height S) waits for acknowledgements until
 * max(M, min(S + 2, L − 1)), so its log is sure to land (two blocks) only if S ≤ L − 4: never at
 * E ≤ 10, and at E = 7 or 8 it closes at L − 1, leaving at most block L, often already proposed. Longer epochs leave room for
 * late starts, resubmissions (every 3 blocks) and slow links; the default is 3,600.
 */
export const MIN_DKG_EPOCH_BLOCKS = 7;

/**
 * Why `epochBlocks` cannot run resharing ceremonies (see {@link MIN_DKG_EPOCH_BLOCKS}), or null
 * if it can. Chains without a DKG group never reshare and may use any epoch length ≥ 1.
 */
export function dkgEpochBlocksProblem(epochBlocks: number): string | null {
  return epochBlocks >= MIN_DKG_EPOCH_BLOCKS
    ? null
    : `must be at least ${MIN_DKG_EPOCH_BLOCKS} with a dkgOutput (${epochBlocks}-block epochs are too short for a resharing ceremony to collect acknowledgements and put its logs on chain)`;
}

/** Field readers over one parsed file; each throws a {@link ValidatorConfigError} naming the field. */
class Fields {
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  bad(field: string, why: string): ValidatorConfigError {
    return new ValidatorConfigError(this.file, field, why);
  }
  /** refuses fields this format does not define (a typo must not be silently ignored) */
  only(o: Record<string, unknown>, prefix: string, allowed: readonly string[]): void {
    for (const k of Object.keys(o))
      if (!allowed.includes(k))
        throw this.bad(`${prefix}${k}`, `unknown field (allowed: ${allowed.join(", ")})`);
  }
  object(v: unknown, field: string): Record<string, unknown> {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw this.bad(field, "must be an object");
    return v as Record<string, unknown>;
  }
  string(v: unknown, field: string): string {
    if (typeof v !== "string" || v === "") throw this.bad(field, "must be a non-empty string");
    return v;
  }
  int(v: unknown, field: string, min: number, max: number): number {
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
      throw this.bad(field, `must be an integer in ${min}..=${max}`);
    return v;
  }
  bool(v: unknown, field: string): boolean {
    if (typeof v !== "boolean") throw this.bad(field, "must be true or false");
    return v;
  }
  hex(v: unknown, field: string, len?: number): Uint8Array {
    let b: Uint8Array;
    try {
      if (typeof v !== "string" || v !== v.toLowerCase()) throw new TypeError();
      b = fromHex(v);
    } catch {
      throw this.bad(field, "must be 0x-prefixed lowercase hex");
    }
    if (len !== undefined && b.length !== len)
      throw this.bad(field, `must be ${len} bytes (got ${b.length})`);
    return b;
  }
  decimal(v: unknown, field: string): bigint {
    if (typeof v !== "string" || !/^(0|[1-9][0-9]*)$/.test(v))
      throw this.bad(field, "must be a decimal string");
    const n = BigInt(v);
    if (n >= 2n ** 64n) throw this.bad(field, "must fit in 64 bits");
    return n;
  }
  strings(v: unknown, field: string, min: number): string[] {
    if (!Array.isArray(v) || v.length < min)
      throw this.bad(field, `must be an array of at least ${min} string${min === 1 ? "" : "s"}`);
    return v.map((s, i) => this.string(s, `${field}[${i}]`));
  }
  version(o: Record<string, unknown>): void {
    if (o.version !== CONFIG_VERSION) throw this.bad("version", `must be ${CONFIG_VERSION}`);
  }
}

const MULTIADDR =
  /^\/(ip4|ip6|dns4|dns6|dns)\/[^/]+\/(udp\/[0-9]+\/quic-v1|tcp\/[0-9]+)(\/p2p\/[1-9A-HJ-NP-Za-km-z]+)?$/;

function checkPeerId(f: Fields, id: string, field: string): void {
  try {
    peerIdFromString(id);
  } catch {
    throw f.bad(field, `${id} is not a libp2p peer id`);
  }
}

/** Parses a network file (see {@link NetworkFile}). */
export function readNetworkFile(path: string): {
  chainName: string;
  group: Uint8Array;
  dkgOutput: Uint8Array | null;
  validators: NetworkValidator[];
  params: Partial<ValidatorParams>;
} {
  const o = readJson(path);
  const f = new Fields(path);
  f.only(o, "", ["version", "chainName", "group", "dkgOutput", "validators", "params"]);
  f.version(o);
  const chainName = f.string(o.chainName, "chainName");
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(chainName))
    throw f.bad("chainName", "must be 1..=64 characters of A-Z a-z 0-9 . _ -");
  const group = f.hex(o.group, "group");
  const dkgOutput = o.dkgOutput === undefined ? null : f.hex(o.dkgOutput, "dkgOutput");
  if (dkgOutput !== null && dkgOutput.length === 0) throw f.bad("dkgOutput", "must not be empty");
  if (!Array.isArray(o.validators) || o.validators.length === 0 || o.validators.length > MAX_VALIDATORS)
    throw f.bad("validators", `must list 1..=${MAX_VALIDATORS} validators`);
  const validators = o.validators.map((raw: unknown, i: number): NetworkValidator => {
    const p = `validators[${i}]`;
    const v = f.object(raw, p);
    f.only(v, `${p}.`, ["address", "blsPublicKey", "proofOfPossession", "peerId", "stake"]);
    const peerId = f.string(v.peerId, `${p}.peerId`);
    checkPeerId(f, peerId, `${p}.peerId`);
    return {
      address: f.hex(v.address, `${p}.address`, 20),
      blsPublicKey: f.hex(v.blsPublicKey, `${p}.blsPublicKey`, 48),
      proofOfPossession: f.hex(v.proofOfPossession, `${p}.proofOfPossession`, 96),
      peerId,
      stake: f.decimal(v.stake, `${p}.stake`),
    };
  });
  // a consensus index is a position in the chain's set, which the registry orders by address
  for (let i = 1; i < validators.length; i++) {
    const a = Buffer.from((validators[i - 1] as NetworkValidator).address).toString("hex");
    const b = Buffer.from((validators[i] as NetworkValidator).address).toString("hex");
    if (a === b) throw f.bad(`validators[${i}].address`, `repeats validators[${i - 1}]'s address`);
    if (a > b)
      throw f.bad(
        `validators[${i}].address`,
        "validators must be listed in ascending address order (the chain's set order)",
      );
  }
  for (let i = 0; i < validators.length; i++)
    for (let j = 0; j < i; j++) {
      const a = validators[i] as NetworkValidator;
      const b = validators[j] as NetworkValidator;
      if (bytesEqual(a.blsPublicKey, b.blsPublicKey))
        throw f.bad(`validators[${i}].blsPublicKey`, `repeats validators[${j}]'s key`);
      if (a.peerId === b.peerId) throw f.bad(`validators[${i}].peerId`, `repeats validators[${j}]'s peer id`);
      if (bytesEqual(a.address, b.address))
        throw f.bad(`validators[${i}].address`, `repeats validators[${j}]'s address`);
    }
  const params: { -readonly [K in keyof ValidatorParams]?: ValidatorParams[K] } = {};
  if (o.params !== undefined) {
    const raw = f.object(o.params, "params");
    const ints = [
      "epochBlocks",
      "unbondingBlocks",
      "jailBlocks",
      "slashBps",
      "downtimeWindow",
      "downtimeMaxMissed",
      "keepEpochs",
      "maxValidators",
    ] as const;
    f.only(raw, "params.", [...ints, "minStake"]);
    for (const k of ints)
      if (raw[k] !== undefined)
        params[k] = f.int(raw[k], `params.${k}`, k === "slashBps" ? 0 : 1, 2 ** 32 - 1);
    if (params.slashBps !== undefined && params.slashBps > 10_000)
      throw f.bad("params.slashBps", "must be at most 10000 (100%)");
    if (raw.minStake !== undefined) params.minStake = f.decimal(raw.minStake, "params.minStake");
  }
  // a chain with a group reshares at epoch boundaries: its epochs must hold a ceremony
  const epochProblem =
    dkgOutput === null
      ? null
      : dkgEpochBlocksProblem(params.epochBlocks ?? DEFAULT_VALIDATOR_PARAMS.epochBlocks);
  if (epochProblem !== null) throw f.bad("params.epochBlocks", epochProblem);
  // the listed validators are the genesis set (and the whole set without dkgOutput): all must fit
  const cap = params.maxValidators ?? DEFAULT_VALIDATOR_PARAMS.maxValidators;
  if (validators.length > cap)
    throw f.bad(
      "params.maxValidators",
      `is ${cap} but ${validators.length} validators are listed; set it to at least ${validators.length}`,
    );
  return { chainName, group, dkgOutput, validators, params };
}

/** Parses a key file (see {@link KeyFile}); absent `index` / `blsShare` are null. */
export function readKeyFile(path: string): {
  index: number | null;
  blsSecretKey: Uint8Array;
  blsShare: Uint8Array | null;
  operatorSecretKey: Uint8Array;
} {
  const o = readJson(path);
  const f = new Fields(path);
  f.only(o, "", ["version", "index", "blsSecretKey", "blsShare", "shareIndex", "operatorSecretKey"]);
  f.version(o);
  const blsShare = o.blsShare === undefined ? null : f.hex(o.blsShare, "blsShare");
  if (blsShare !== null && blsShare.length === 0) throw f.bad("blsShare", "must not be empty");
  if (o.shareIndex !== undefined) {
    if (blsShare === null) throw f.bad("shareIndex", "is set but there is no blsShare");
    const want = f.int(o.shareIndex, "shareIndex", 0, MAX_VALIDATORS - 1);
    // the share is `varint index ‖ scalar`
    let got = 0;
    let ok = false;
    for (let i = 0; i < 5 && i < blsShare.length; i++) {
      const b = blsShare[i] as number;
      got += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) {
        ok = true;
        break;
      }
    }
    if (!ok || got !== want) throw f.bad("shareIndex", `is ${want} but blsShare is share ${ok ? got : "?"}`);
  }
  return {
    index: o.index === undefined ? null : f.int(o.index, "index", 0, MAX_VALIDATORS - 1),
    blsSecretKey: f.hex(o.blsSecretKey, "blsSecretKey", 32),
    blsShare,
    operatorSecretKey: f.hex(o.operatorSecretKey, "operatorSecretKey", 32),
  };
}

/**
 * Reads and checks a config file and the files it names; throws {@link ValidatorConfigError}.
 * `blsPublicKey` derives a BLS public key (the addon's; injected so this module loads without it)
 * to check that the key file belongs to the validator it claims to be; it is required for a key
 * file without `index` (the key is looked up in the network file by its public key).
 *
 * Which validator the key file is: with `index`, that network-file entry (BLS key and operator
 * address must both match it). Without, the entry whose BLS key or operator address matches
 * (both must then match, and `blsShare` is optional); if none does, the node is a joining
 * validator (`identity.networkIndex === null`, no `blsShare` allowed: the genesis group has no
 * share for it).
 */
export function readValidatorConfig(
  path: string,
  blsPublicKey?: (secretKey: Uint8Array) => Uint8Array,
): ValidatorSettings {
  const o = readJson(path);
  const f = new Fields(path);
  f.only(o, "", [
    "version",
    "dataDir",
    "genesisFile",
    "networkFile",
    "keyFile",
    "chainId",
    "p2p",
    "rpc",
    "metrics",
    "timeouts",
    "logLevel",
    "faults",
  ]);
  f.version(o);
  const base = dirname(path);
  const rel = (p: string) => (isAbsolute(p) ? p : join(base, p));
  const dataDir = rel(f.string(o.dataDir, "dataDir"));
  const genesisFile = rel(f.string(o.genesisFile, "genesisFile"));
  if (basename(genesisFile) !== GENESIS_FILE)
    throw f.bad("genesisFile", `must name a file called ${GENESIS_FILE}`);
  let genesis: GenesisConfig | null;
  try {
    genesis = readGenesisFile(dirname(genesisFile));
  } catch (err) {
    throw f.bad("genesisFile", (err as Error).message);
  }
  if (genesis === null) throw f.bad("genesisFile", `${genesisFile} does not exist`);
  if (o.chainId !== undefined) {
    const want = f.decimal(o.chainId, "chainId");
    if (want !== genesis.chainId)
      throw f.bad("chainId", `is ${want} but the genesis is for chain ${genesis.chainId}`);
  }
  const network = readNetworkFile(rel(f.string(o.networkFile, "networkFile")));
  const keyPath = rel(f.string(o.keyFile, "keyFile"));
  const key = readKeyFile(keyPath);
  const kf = new Fields(keyPath);
  const operator = addressFromSecretKey(key.operatorSecretKey);
  let myKey: Uint8Array | null = null;
  if (blsPublicKey !== undefined) {
    try {
      myKey = blsPublicKey(key.blsSecretKey);
    } catch (err) {
      throw kf.bad("blsSecretKey", `is not a BLS secret key (${(err as Error).message})`);
    }
  }
  let networkIndex: number | null;
  if (key.index !== null) {
    networkIndex = key.index;
    const me = network.validators[key.index];
    if (me === undefined)
      throw kf.bad("index", `is ${key.index} but the network has ${network.validators.length} validators`);
    if (myKey !== null && !bytesEqual(myKey, me.blsPublicKey))
      throw kf.bad("blsSecretKey", `is not the key of validator ${key.index} in the network file`);
    if (!bytesEqual(operator, me.address))
      throw kf.bad(
        "operatorSecretKey",
        `is not the operator key of validator ${key.index} (address mismatch)`,
      );
    if (key.blsShare === null)
      throw kf.bad(
        "blsShare",
        `is required with index (validator ${key.index}'s share of the genesis group)`,
      );
  } else {
    if (myKey === null)
      throw kf.bad("index", "is required unless the BLS public key can be derived (the node's addon)");
    const pk = myKey;
    const byKey = network.validators.findIndex((v) => bytesEqual(v.blsPublicKey, pk));
    const byAddress = network.validators.findIndex((v) => bytesEqual(v.address, operator));
    if (byKey >= 0 && byAddress !== byKey)
      throw kf.bad(
        "operatorSecretKey",
        `the BLS key is validator ${byKey}'s in the network file, but the operator key is not its operator (address mismatch)`,
      );
    if (byAddress >= 0 && byKey !== byAddress)
      throw kf.bad(
        "blsSecretKey",
        `the operator is validator ${byAddress}'s in the network file, but the BLS key is not its key`,
      );
    networkIndex = byKey >= 0 ? byKey : null;
    if (networkIndex === null && key.blsShare !== null)
      throw kf.bad(
        "blsShare",
        "this key is not in the network file, so it holds no share of the genesis group (remove blsShare)",
      );
  }

  const p2p = f.object(o.p2p, "p2p");
  f.only(p2p, "p2p.", ["listen", "bootstrap"]);
  const listen = f.strings(p2p.listen, "p2p.listen", 1);
  listen.forEach((a, i) => {
    if (!MULTIADDR.test(a))
      throw f.bad(`p2p.listen[${i}]`, `${a} is not a /ip4|ip6|dns…/udp/PORT/quic-v1 or /tcp/PORT multiaddr`);
  });
  const bootstrap = f.strings(p2p.bootstrap ?? [], "p2p.bootstrap", 0);
  bootstrap.forEach((a, i) => {
    const m = MULTIADDR.exec(a);
    if (m === null || m[3] === undefined)
      throw f.bad(`p2p.bootstrap[${i}]`, `${a} is not a multiaddr ending in /p2p/<peer id>`);
    checkPeerId(f, m[3].slice(5), `p2p.bootstrap[${i}]`);
  });

  const rpc = f.object(o.rpc, "rpc");
  f.only(rpc, "rpc.", ["host", "port"]);
  const rpcHost = f.string(rpc.host, "rpc.host");
  const rpcPort = f.int(rpc.port, "rpc.port", 0, 65_535);
  const metrics = o.metrics === undefined ? true : f.bool(o.metrics, "metrics");

  const t = o.timeouts === undefined ? {} : f.object(o.timeouts, "timeouts");
  f.only(t, "timeouts.", ["leaderMs", "notarizationMs", "nullifyRetryMs", "blockTimeMs"]);
  const ms = (v: unknown, field: string, dflt: number, min: number) =>
    v === undefined ? dflt : f.int(v, `timeouts.${field}`, min, 600_000);
  const leaderTimeoutMs = ms(t.leaderMs, "leaderMs", 1_000, 10);
  const notarizationTimeoutMs = ms(t.notarizationMs, "notarizationMs", 2_000, 10);
  if (notarizationTimeoutMs < leaderTimeoutMs)
    throw f.bad("timeouts.notarizationMs", "must be at least timeouts.leaderMs");
  const timeouts = {
    leaderTimeoutMs,
    notarizationTimeoutMs,
    nullifyRetryMs: ms(t.nullifyRetryMs, "nullifyRetryMs", notarizationTimeoutMs, 10),
    minViewMs: ms(t.blockTimeMs, "blockTimeMs", 0, 0),
  };

  const logLevel = o.logLevel === undefined ? "info" : f.string(o.logLevel, "logLevel");
  if (!LOG_LEVELS.includes(logLevel)) throw f.bad("logLevel", `must be one of ${LOG_LEVELS.join(", ")}`);
  const faults = o.faults === undefined ? {} : f.object(o.faults, "faults");
  f.only(faults, "faults.", ["equivocate"]);
  const equivocate = faults.equivocate === undefined ? false : f.bool(faults.equivocate, "faults.equivocate");

  return {
    dataDir,
    genesis: {
      ...genesis,
      validators: network.validators.map((v) => ({
        address: v.address,
        blsKey: v.blsPublicKey,
        stake: v.stake,
        proofOfPossession: v.proofOfPossession,
      })),
      ...(Object.keys(network.params).length === 0 ? {} : { validatorParams: network.params }),
      ...(network.dkgOutput === null ? {} : { dkgOutput: network.dkgOutput }),
    },
    chainName: network.chainName,
    validators: network.validators,
    group: network.group,
    dkgOutput: network.dkgOutput,
    signer: {
      index: networkIndex ?? -1,
      secretKey: key.blsSecretKey,
      share: key.blsShare ?? new Uint8Array(0),
    },
    identity: {
      address: operator,
      blsPublicKey: myKey ?? (network.validators[networkIndex as number] as NetworkValidator).blsPublicKey,
      networkIndex,
    },
    operatorSecretKey: key.operatorSecretKey,
    p2p: { listen, bootstrap },
    rpc: { host: rpcHost, port: rpcPort },
    metrics,
    timeouts,
    logLevel,
    faults: { equivocate },
  };
}
