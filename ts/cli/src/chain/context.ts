/**
 * What every chain command shares: the node URL (`--rpc`, else `$COWBOY_RPC`,
 * else the project's `cowboy.json` `rpc`, else http://127.0.0.1:8545), the
 * signing account (`--dev N`, `--key NAME`, or `$COWBOY_PRIVATE_KEY`), argument
 * parsing (addresses, hashes, amounts, block selectors) and the translation of
 * the SDK's typed errors into `cowboy: <CODE>: <message>` lines that say how to
 * fix the problem.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  ActorCallError,
  addressFromSecretKey,
  type BlockTag,
  checkSecretKey,
  createPublicClient,
  createWalletClient,
  decryptKeystore,
  deriveSecretKey,
  isClientError,
  isSdkError,
  mnemonicToSeed,
  type PublicClient,
  parseHexLoose,
  RpcRequestError,
  TransportError,
  type WalletClient,
} from "@cowboy/sdk";
import type { Command } from "commander";
import { CliError } from "../errors.ts";
import { io } from "../io.ts";

/** The node the commands talk to when nothing else is said. */
export const DEFAULT_RPC = "http://127.0.0.1:8545";

/**
 * The devnet's public development mnemonic (`cowboy devnet` prefunds accounts
 * `m/44'/60'/0'/0/{i}` of it and prints them). Public: never hold value with it.
 */
export const DEVNET_MNEMONIC =
  "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";

/** The project configuration file written by `cowboy init`. */
export const CONFIG_FILE = "cowboy.json";

/** `cowboy.json`. */
export interface ProjectConfig {
  name?: string;
  /** the actor source file, relative to the project */
  actor?: string;
  /** the node URL */
  rpc?: string;
}

/** Reads `cowboy.json` of the current directory (null when absent). */
export function readProjectConfig(dir = io().cwd()): ProjectConfig | null {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new CliError("ERR_CONFIG", `${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError("ERR_CONFIG", `${file} must hold a JSON object`);
  }
  return parsed as ProjectConfig;
}

/** Options every chain command takes. */
export interface RpcOpts {
  rpc?: string;
  json?: boolean;
}

/** Options of commands that sign. */
export interface SignerOpts extends RpcOpts {
  dev?: string | boolean;
  key?: string;
  keysDir?: string;
  passwordFile?: string;
}

/** Adds `--rpc` and `--json` to `cmd`. */
export function rpcOptions(cmd: Command): Command {
  return cmd
    .option("--rpc <url>", `node URL (default: $COWBOY_RPC, cowboy.json "rpc", else ${DEFAULT_RPC})`)
    .option("--json", "print JSON for scripts instead of tables");
}

/** Adds the account options to `cmd`. */
export function signerOptions(cmd: Command): Command {
  return rpcOptions(cmd)
    .option("--dev [index]", "sign with devnet development account <index> (default 0)")
    .option(
      "--key <name>",
      "sign with a key saved by `cowboy keys new` (password: --password-file or $COWBOY_PASSWORD)",
    )
    .option("--keys-dir <dir>", "key directory (default: $COWBOY_KEYS_DIR, else ~/.cowboy/keys)")
    .option("--password-file <file>", "read the key's password from the first line of <file>");
}

/** The node URL for `opts`. */
export function rpcUrl(opts: RpcOpts): string {
  return opts.rpc ?? io().env.COWBOY_RPC ?? readProjectConfig()?.rpc ?? DEFAULT_RPC;
}

/** A read-only client. */
export function publicClient(opts: RpcOpts): PublicClient {
  return createPublicClient({ transport: rpcUrl(opts) });
}

/** The secret key `opts` names. */
export function secretKeyOf(opts: SignerOpts): Uint8Array {
  const env = io().env;
  if (opts.dev !== undefined && opts.dev !== false) {
    const index = opts.dev === true ? "0" : opts.dev;
    if (!/^(0|[1-9][0-9]{0,3})$/.test(index)) {
      throw new CliError("ERR_ARG", `--dev takes a development account index like 0 or 3, got '${index}'`);
    }
    const seed = mnemonicToSeed(DEVNET_MNEMONIC);
    try {
      return deriveSecretKey(seed, `m/44'/60'/0'/0/${index}`);
    } finally {
      seed.fill(0);
    }
  }
  if (opts.key !== undefined) {
    const dir = opts.keysDir ?? env.COWBOY_KEYS_DIR ?? join(homedir(), ".cowboy", "keys");
    const file = join(dir, `${opts.key}.json`);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new CliError(
        "ERR_KEY_NOT_FOUND",
        `no key named "${opts.key}" in ${dir} (create one with \`cowboy keys new --name ${opts.key}\`)`,
      );
    }
    let password: string | undefined = env.COWBOY_PASSWORD;
    if (opts.passwordFile !== undefined) {
      try {
        password = readFileSync(opts.passwordFile, "utf8").split(/\r?\n/u)[0] ?? "";
      } catch (err) {
        throw new CliError(
          "ERR_FILE",
          `cannot read password file ${opts.passwordFile}: ${(err as Error).message}`,
        );
      }
    }
    if (password === undefined) {
      throw new CliError(
        "ERR_PASSWORD_REQUIRED",
        "no password: pass --password-file <file> or set COWBOY_PASSWORD",
      );
    }
    return cliSync(() => decryptKeystore(text, password));
  }
  const hex = env.COWBOY_PRIVATE_KEY;
  if (hex !== undefined && hex !== "") {
    return cliSync(() => checkSecretKey(parseHexLoose(hex), "COWBOY_PRIVATE_KEY"));
  }
  throw new CliError(
    "ERR_NO_SIGNER",
    "no account to sign with: pass --dev 0 (a devnet development account), --key NAME (a key from `cowboy keys new`) or set COWBOY_PRIVATE_KEY",
  );
}

/** A signing client for the account `opts` names. */
export function walletClient(opts: SignerOpts): WalletClient {
  return createWalletClient({ transport: rpcUrl(opts), secretKey: secretKeyOf(opts) });
}

/** The address of the account `opts` names, or null when none is named. */
export function signerAddress(opts: SignerOpts): Uint8Array | null {
  const named =
    (opts.dev !== undefined && opts.dev !== false) ||
    opts.key !== undefined ||
    (io().env.COWBOY_PRIVATE_KEY ?? "") !== "";
  return named ? addressFromSecretKey(secretKeyOf(opts)) : null;
}

/** Parses a 20-byte address argument. */
export function parseAddress(text: string, what = "address"): Uint8Array {
  const b = /^0x[0-9a-fA-F]{40}$/.test(text) ? parseHexLoose(text) : null;
  if (b === null)
    throw new CliError("ERR_ARG", `${what} must be 0x followed by 40 hex digits, got '${text}'`);
  return b;
}

/** Parses a 32-byte hash argument. */
export function parseHash(text: string, what = "hash"): Uint8Array {
  const b = /^0x[0-9a-fA-F]{64}$/.test(text) ? parseHexLoose(text) : null;
  if (b === null)
    throw new CliError("ERR_ARG", `${what} must be 0x followed by 64 hex digits, got '${text}'`);
  return b;
}

/** Parses a block selector: latest, finalized, safe, earliest, pending, a decimal or 0x height. */
export function parseBlockTag(text: string): BlockTag {
  if (["latest", "finalized", "safe", "earliest", "pending"].includes(text)) return text as BlockTag;
  if (/^(0|[1-9][0-9]*)$/.test(text) || /^0x[0-9a-fA-F]+$/.test(text)) return BigInt(text);
  throw new CliError(
    "ERR_ARG",
    `block must be latest, finalized, earliest, pending or a number, got '${text}'`,
  );
}

/** Parses an amount: base units (`1500`), or CBY with a unit (`1.5cby`, `2 CBY`). Exact. */
export function parseAmount(text: string, what = "amount"): bigint {
  const t = text.trim();
  const cby = /^([0-9]+)(?:\.([0-9]{1,9}))?\s*cby$/i.exec(t);
  let v: bigint;
  if (cby !== null) {
    v = BigInt(cby[1] as string) * 1_000_000_000n + BigInt((cby[2] ?? "").padEnd(9, "0") || "0");
  } else if (/^[0-9]+$/.test(t)) {
    v = BigInt(t);
  } else {
    throw new CliError(
      "ERR_ARG",
      `${what} must be base units (1500) or CBY with up to 9 decimals (1.5cby), got '${text}'`,
    );
  }
  if (v >= 2n ** 64n) throw new CliError("ERR_ARG", `${what} ${text} exceeds 2^64-1 base units`);
  return v;
}

function cliSync<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw toCliError(err);
  }
}

/** Maps any error of the SDK to a {@link CliError} whose message says how to fix it. */
export function toCliError(err: unknown, url?: string): Error {
  if (err instanceof CliError) return err;
  if (err instanceof TransportError) {
    if (err.kind === "network") {
      return new CliError(
        err.errCode,
        `cannot reach the node at ${err.url}: start one with \`npx cowboy devnet\`, or point --rpc (or $COWBOY_RPC) at a running node`,
      );
    }
    return new CliError(err.errCode, err.message);
  }
  if (err instanceof RpcRequestError) {
    const hint = hintFor(err);
    return new CliError(err.errCode, `${err.message}${hint === "" ? "" : ` (${hint})`}`);
  }
  if (err instanceof ActorCallError) return new CliError(err.errCode, err.message);
  if (isClientError(err) || isSdkError(err)) {
    return new CliError((err as { errCode: string }).errCode, (err as Error).message);
  }
  const errCode = (err as { errCode?: unknown } | null)?.errCode;
  if (err instanceof Error && typeof errCode === "string") return new CliError(errCode, err.message);
  void url;
  return err instanceof Error ? err : new Error(String(err));
}

function hintFor(err: RpcRequestError): string {
  switch (err.reason) {
    case "ERR_MEMPOOL_NONCE_TOO_LOW":
      return "a transaction with this nonce was already sent; retry without --nonce";
    case "ERR_MEMPOOL_NONCE_GAP":
      return "an earlier nonce of this account is missing; send it first or omit --nonce";
    case "ERR_MEMPOOL_FEE_TOO_LOW":
    case "ERR_MEMPOOL_REPLACEMENT_UNDERPRICED":
      return "raise the fee caps or omit them to use the node's estimate";
    default:
      break;
  }
  if (err.reason?.includes("BALANCE") === true || /insufficient/i.test(err.message)) {
    return "fund the account, e.g. `npx cowboy faucet <address>` on a devnet";
  }
  if (err.code === -32601 && err.method.startsWith("cowboy_")) return "the node does not serve this method";
  return "";
}

/** Runs a command body, translating errors. */
export async function run(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    throw toCliError(err);
  }
}
