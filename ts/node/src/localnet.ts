/**
 * `cowboy localnet --validators N`: N validator processes (ts/node/src/validator/main.ts) on
 * loopback, each with its own data directory, state store, ledger, libp2p identity and
 * JSON-RPC port, sharing one genesis (the devnet's development accounts and faucet balance)
 * and one validator set (BLS keys dealt by `blsDevnetKeys` from a seed stored in the
 * localnet directory). Prints every validator's RPC URL; Ctrl-C stops them all.
 *
 * Each validator runs `cowboyd --config v<i>/config.json`: the same config files a real
 * multi-machine network uses (docs/validator.md), only generated here.
 *
 * Layout of the localnet directory: `genesis.json`, `network.json` (the validator set: keys,
 * proofs of possession, peer ids, stakes; the seed's threshold public polynomial),
 * `localnet.json` (the dealer seed and peer ids), and per validator `v<i>/config.json`,
 * `v<i>/validator.key` (its BLS key, threshold share and operator key) and `v<i>/` (its data
 * directory; `validator.log` = its logs).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { blsDevnetKeys, DEFAULT_MAX_VALIDATORS, genesisDkg } from "@cowboy/consensus";
import { loadOrCreateIdentity } from "@cowboy/p2p";
import { addressFromSecretKey, deriveSecretKey, mnemonicToSeed, toHex } from "@cowboy/sdk";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { DEV_ACCOUNT_BALANCE, DEV_MNEMONIC, deriveDevKeys, FAUCET_BALANCE } from "./devnet/accounts.ts";
import { readGenesisFile, writeGenesisFile } from "./devnet/genesis-file.ts";
import { UNITS_PER_CBY } from "./params.ts";
import {
  dkgEpochBlocksProblem,
  type KeyFile,
  type NetworkFile,
  type ValidatorFileConfig,
} from "./validator/config.ts";

export interface LocalnetOptions {
  validators: number;
  dir: string;
  /** first libp2p (QUIC, UDP) port; validator i listens on basePort + i */
  basePort: number;
  /** first JSON-RPC port; validator i serves on rpcPort + i (0 = any free port for all) */
  rpcPort: number;
  chainId: bigint;
  /** pacing: each leader waits this long in its view before proposing (0 = unpaced) */
  blockTimeMs: number;
  leaderTimeoutMs: number;
  notarizationTimeoutMs: number;
  accounts: number;
  logLevel: string;
  /** blocks per validator-set epoch written to the network file (absent: the default 3,600) */
  epochBlocks?: number;
  /**
   * genesis group from an in-process DKG (`genesisDkg`): the network file carries its output
   * (`GenesisConfig.dkgOutput`), each key file its share and share index, and the validators
   * switch sets and groups at epoch boundaries (resharing when the set changes). False: a
   * dealer-dealt group (`blsDevnetKeys`) and one validator set for the network's life. Fixed
   * when the localnet is created. Default true.
   */
  dkg?: boolean;
}

/**
 * The network file's validator parameters: the epoch length when given, and a set cap that
 * holds every localnet validator when there are more than the default cap (`maxValidators`,
 * docs/validator.md "Maximum set size").
 */
function localnetParams(
  epochBlocks: number | undefined,
  validators: number,
): { params?: { epochBlocks?: number; maxValidators?: number } } {
  const params = {
    ...(epochBlocks === undefined ? {} : { epochBlocks }),
    ...(validators > DEFAULT_MAX_VALIDATORS ? { maxValidators: validators } : {}),
  };
  return Object.keys(params).length === 0 ? {} : { params };
}

export const DEFAULT_LOCALNET: LocalnetOptions = {
  validators: 4,
  dir: "./.cowboy/localnet",
  basePort: 30_300,
  rpcPort: 8545,
  chainId: 7778n,
  blockTimeMs: 1_000,
  leaderTimeoutMs: 1_000,
  notarizationTimeoutMs: 2_000,
  accounts: 10,
  logLevel: "info",
};

interface LocalnetFile {
  validators: number;
  keySeed: string;
  peerIds: string[];
  /** fixed when the localnet is created (it is part of the genesis state) */
  epochBlocks?: number;
  /** the genesis has a DKG output (absent in localnets made before it existed: false) */
  dkg?: boolean;
}

/**
 * Operator keys of `n` validators: the dev mnemonic at `m/44'/60'/1'/0/{0..n-1}`, ordered by
 * address — validator i is the i-th smallest address, because the chain's validator set
 * (the registry) orders its members by address and a consensus index is a position in it.
 */
export function localnetOperatorKeys(n: number): Uint8Array[] {
  const seed = mnemonicToSeed(DEV_MNEMONIC);
  const out = Array.from({ length: n }, (_, i) => deriveSecretKey(seed, `m/44'/60'/1'/0/${i}`));
  seed.fill(0);
  const addr = (k: Uint8Array) => Buffer.from(addressFromSecretKey(k)).toString("hex");
  return out.sort((a, b) => (addr(a) < addr(b) ? -1 : 1));
}

/** Operator (and proposer) address of validator `i` (see {@link localnetOperatorKeys}). */
export function localnetValidatorAddresses(n: number): Uint8Array[] {
  return localnetOperatorKeys(n).map((k) => addressFromSecretKey(k));
}

/** Genesis balance of each localnet validator's operator account (it pays for evidence and staking transactions). */
export const LOCALNET_OPERATOR_BALANCE = 1_000_000n * UNITS_PER_CBY;
/** Genesis self-stake of each localnet validator. */
export const LOCALNET_STAKE = 100_000n * UNITS_PER_CBY;

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`;

/**
 * Creates (or reuses) the localnet directory: genesis, key seed, identities and one config file
 * per validator. Returns the config paths. A directory made for another validator count is refused.
 */
export async function planLocalnet(o: LocalnetOptions, now: () => number = Date.now): Promise<string[]> {
  const dir = resolve(o.dir);
  mkdirSync(dir, { recursive: true });
  const metaPath = join(dir, "localnet.json");
  let meta: LocalnetFile | null = existsSync(metaPath)
    ? (JSON.parse(readFileSync(metaPath, "utf8")) as LocalnetFile)
    : null;
  if (meta !== null && meta.validators !== o.validators)
    throw new Error(`${dir} holds a localnet of ${meta.validators} validators; use --reset for a new one`);
  if (readGenesisFile(dir) === null) {
    const keys = deriveDevKeys(o.accounts);
    writeGenesisFile(dir, {
      chainId: o.chainId,
      timestampMs: BigInt(now()),
      accounts: [
        ...keys.accounts.map((k) => ({ address: k.address, balance: DEV_ACCOUNT_BALANCE })),
        { address: keys.faucet.address, balance: FAUCET_BALANCE },
        ...localnetValidatorAddresses(o.validators).map((address) => ({
          address,
          balance: LOCALNET_OPERATOR_BALANCE,
        })),
      ],
    });
  }
  const peerIds: string[] = [];
  for (let i = 0; i < o.validators; i++) {
    const vdir = join(dir, `v${i}`);
    mkdirSync(vdir, { recursive: true });
    peerIds.push(peerIdFromPrivateKey((await loadOrCreateIdentity(join(vdir, "p2p.key"))).key).toString());
  }
  if (meta === null) {
    meta = {
      validators: o.validators,
      keySeed: randomBytes(32).toString("hex"),
      peerIds,
      ...(o.epochBlocks === undefined ? {} : { epochBlocks: o.epochBlocks }),
      dkg: o.dkg ?? true,
    };
    writeFileSync(metaPath, `${JSON.stringify(meta, null, 2)}\n`);
  }
  const chainId = (readGenesisFile(dir) as { chainId: bigint }).chainId;
  const bls = blsDevnetKeys(o.validators, chainId, Buffer.from(meta.keySeed, "hex"));
  // the genesis group: a DKG among the validators' keys (deterministic in the keys), or the dealer's
  const dkg = meta.dkg === true ? genesisDkg(bls.secretKeys, chainId) : null;
  const operators = localnetOperatorKeys(o.validators);
  const network: NetworkFile = {
    version: 1,
    chainName: `cowboy-localnet-${chainId}`,
    group: hex(dkg === null ? bls.group : dkg.group),
    ...(dkg === null ? {} : { dkgOutput: hex(dkg.output) }),
    validators: operators.map((sk, i) => ({
      address: toHex(addressFromSecretKey(sk)),
      blsPublicKey: hex(bls.publicKeys[i] as Uint8Array),
      proofOfPossession: hex(bls.proofs[i] as Uint8Array),
      peerId: meta.peerIds[i] as string,
      stake: LOCALNET_STAKE.toString(),
    })),
    ...localnetParams(meta.epochBlocks, o.validators),
  };
  writeFileSync(join(dir, "network.json"), `${JSON.stringify(network, null, 2)}\n`);
  const addr = (i: number) => `/ip4/127.0.0.1/udp/${o.basePort + i}/quic-v1`;
  const paths: string[] = [];
  for (let i = 0; i < o.validators; i++) {
    const vdir = join(dir, `v${i}`);
    const key: KeyFile = {
      version: 1,
      index: i,
      blsSecretKey: hex(bls.secretKeys[i] as Uint8Array),
      blsShare: hex(dkg === null ? (bls.shares[i] as Uint8Array) : (dkg.shares[i]?.share as Uint8Array)),
      ...(dkg === null ? {} : { shareIndex: dkg.shares[i]?.index as number }),
      operatorSecretKey: hex(operators[i] as Uint8Array),
    };
    writeFileSync(join(vdir, "validator.key"), `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
    const cfg: ValidatorFileConfig = {
      version: 1,
      dataDir: ".",
      genesisFile: "../genesis.json",
      networkFile: "../network.json",
      keyFile: "validator.key",
      chainId: chainId.toString(),
      p2p: {
        listen: [addr(i)],
        bootstrap: meta.peerIds.flatMap((p, j) => (j === i ? [] : [`${addr(j)}/p2p/${p}`])),
      },
      rpc: { host: "127.0.0.1", port: o.rpcPort === 0 ? 0 : o.rpcPort + i },
      metrics: true,
      timeouts: {
        leaderMs: o.leaderTimeoutMs,
        notarizationMs: o.notarizationTimeoutMs,
        nullifyRetryMs: o.notarizationTimeoutMs,
        blockTimeMs: o.blockTimeMs,
      },
      logLevel: o.logLevel,
    };
    const path = join(vdir, "config.json");
    writeFileSync(path, `${JSON.stringify(cfg, null, 2)}\n`);
    paths.push(path);
  }
  return paths;
}

/** The path of the node's entry: validators run `cowboyd --config FILE`. */
export const COWBOYD = join(import.meta.dirname, "cowboyd.ts");

/** A running validator process. */
export interface ValidatorProcess {
  readonly index: number;
  readonly child: ChildProcess;
  /** resolves with the RPC URL once the process serves (rejects if it exits first) */
  readonly ready: Promise<{ rpc: string; ws: string; syncedTo: number }>;
  /** resolves when the process has exited */
  readonly exited: Promise<number | null>;
}

/**
 * Spawns one validator process for `configPath`. Its log lines go to `onLog` (the ready line
 * is consumed).
 */
export function spawnValidator(
  index: number,
  configPath: string,
  onLog: (line: string) => void,
): ValidatorProcess {
  const child = spawn(process.execPath, [COWBOYD, "--config", configPath], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let ready!: (v: { rpc: string; ws: string; syncedTo: number }) => void;
  let failed!: (e: Error) => void;
  const readyP = new Promise<{ rpc: string; ws: string; syncedTo: number }>((res, rej) => {
    ready = res;
    failed = rej;
  });
  readyP.catch(() => {});
  const exited = new Promise<number | null>((res) => child.once("exit", (code) => res(code)));
  void exited.then((code) =>
    failed(new Error(`validator ${index} exited (code ${code}) before it was ready`)),
  );
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    createInterface({ input: stream }).on("line", (line) => {
      if (line.startsWith('{"ev":"ready"')) {
        const ev = JSON.parse(line) as { rpc: string; ws: string; syncedTo: number };
        ready({ rpc: ev.rpc, ws: ev.ws, syncedTo: ev.syncedTo });
      } else onLog(line);
    });
  }
  return { index, child, ready: readyP, exited };
}

const HELP = `usage: cowboy localnet [options]

Starts N validator processes on 127.0.0.1 that run Simplex consensus over QUIC and execute
one shared chain; prints each validator's JSON-RPC URL. Ctrl-C stops them all.

  --validators N        number of validators (default 4; 1..=16)
  --data-dir DIR        localnet directory (default ./.cowboy/localnet)
  --reset               delete the directory first (a new chain)
  --rpc-port PORT       validator i serves JSON-RPC on PORT+i (default 8545; 0 = any free port)
  --p2p-port PORT       validator i listens (QUIC/UDP) on PORT+i (default 30300)
  --block-time MS       pacing: one view every MS ms (default 1000; 0 = as fast as possible)
  --chain-id N          chain id of a new localnet (default 7778)
  --epoch-blocks N      blocks per validator-set epoch of a new localnet (default 3600; at
                        least 7 with a DKG, the shortest epoch a resharing fits in)
  --no-dkg              a new localnet without a genesis DKG output (dealer-dealt group, one
                        validator set for the network's life; default: DKG, sets per epoch)
  --log-level L         validator log level (default info); logs go to <dir>/v<i>/validator.log
`;

/** Parses `cowboy localnet` options; throws an Error with a readable message. */
export function parseLocalnetArgs(argv: readonly string[]): (LocalnetOptions & { reset: boolean }) | "help" {
  const o = { ...DEFAULT_LOCALNET, reset: false };
  const int = (v: string | undefined, name: string, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < min || n > max)
      throw new Error(`${name} must be an integer in ${min}..=${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = argv[i + 1];
    switch (a) {
      case "--help":
      case "-h":
        return "help";
      case "--validators":
        o.validators = int(v, a, 1, 16);
        i++;
        break;
      case "--data-dir":
        if (v === undefined) throw new Error("--data-dir needs a directory");
        o.dir = v;
        i++;
        break;
      case "--reset":
        o.reset = true;
        break;
      case "--rpc-port":
        o.rpcPort = int(v, a, 0, 65_000);
        i++;
        break;
      case "--p2p-port":
        o.basePort = int(v, a, 1, 65_000);
        i++;
        break;
      case "--block-time":
        o.blockTimeMs = int(v, a, 0, 60_000);
        i++;
        break;
      case "--chain-id":
        o.chainId = BigInt(int(v, a, 1, 2 ** 31 - 1));
        i++;
        break;
      case "--no-dkg":
        o.dkg = false;
        break;
      case "--epoch-blocks":
        o.epochBlocks = int(v, a, 1, 1_000_000);
        i++;
        break;
      case "--log-level":
        if (v === undefined) throw new Error("--log-level needs a level");
        o.logLevel = v;
        i++;
        break;
      default:
        throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  // with a DKG (the default) the chain reshares at epoch boundaries: the epochs must hold a ceremony
  const problem =
    o.dkg === false || o.epochBlocks === undefined ? null : dkgEpochBlocksProblem(o.epochBlocks);
  if (problem !== null) throw new Error(`--epoch-blocks ${problem}; or use --no-dkg`);
  return o;
}

/** Runs the localnet in the foreground until SIGINT/SIGTERM; resolves to the exit code. */
export async function runLocalnet(
  argv: readonly string[],
  io: { out: (s: string) => void; err: (s: string) => void },
): Promise<number> {
  let o: ReturnType<typeof parseLocalnetArgs>;
  try {
    o = parseLocalnetArgs(argv);
  } catch (err) {
    io.err(`cowboy localnet: ${(err as Error).message}\n`);
    return 2;
  }
  if (o === "help") {
    io.out(HELP);
    return 0;
  }
  if (o.reset) rmSync(resolve(o.dir), { recursive: true, force: true });
  let paths: string[];
  try {
    paths = await planLocalnet(o);
  } catch (err) {
    io.err(`cowboy localnet: ${(err as Error).message}\n`);
    return 1;
  }
  const genesis = readGenesisFile(resolve(o.dir));
  io.out(`localnet: ${o.validators} validators, chain id ${genesis?.chainId}, directory ${resolve(o.dir)}\n`);
  const procs = paths.map((p, i) => {
    const log = createWriteStream(join(resolve(o.dir), `v${i}`, "validator.log"), { flags: "a" });
    const proc = spawnValidator(i, p, (line) => log.write(`${line}\n`));
    void proc.exited.then(() => log.end());
    return proc;
  });
  let stopping = false;
  const stopAll = async () => {
    if (stopping) return;
    stopping = true;
    io.out("stopping the validators…\n");
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
  };
  const onSignal = () => void stopAll();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    for (const p of procs) {
      const r = await p.ready;
      io.out(
        `validator ${p.index}: rpc ${r.rpc}  ws ${r.ws}  (data ${join(resolve(o.dir), `v${p.index}`)})\n`,
      );
    }
    const keys = deriveDevKeys(Math.min(o.accounts, 3));
    io.out(
      `development accounts (mnemonic "${DEV_MNEMONIC}"), e.g. ${keys.accounts.map((k) => toHex(k.address)).join(", ")}\n`,
    );
    io.out("finalizing; Ctrl-C stops all validators\n");
  } catch (err) {
    io.err(`cowboy localnet: ${(err as Error).message}; see ${resolve(o.dir)}/v*/validator.log\n`);
    await stopAll();
    return 1;
  }
  await Promise.race(procs.map((p) => p.exited));
  if (!stopping) {
    io.err("cowboy localnet: a validator exited; stopping the others\n");
    await stopAll();
    return 1;
  }
  const codes = await Promise.all(procs.map((p) => p.exited));
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  return codes.every((c) => c === 0) ? 0 : 1;
}
