/**
 * Configuration of the devnet process (`cowboyd`, `cowboy devnet`): command-line options,
 * their defaults and validation. Parsing never exits the process; bad input is a
 * {@link ConfigError} naming the option.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";

/**
 * When blocks are produced:
 * - `interval`: one block every `ms` milliseconds, empty or not (default 1000);
 * - `instant`: back to back, as fast as the machine allows (`--block-time 0`);
 * - `on-demand`: only when transactions are waiting (`--block-time auto`): right away on an idle
 *   node; under load 2 ms after the previous block, so the next one gathers what came meanwhile.
 */
export type BlockTime = { kind: "interval"; ms: number } | { kind: "instant" } | { kind: "on-demand" };

export interface DevnetConfig {
  dataDir: string;
  rpcHost: string;
  rpcPort: number;
  blockTime: BlockTime;
  /** delete the data directory first and start a new chain */
  reset: boolean;
  chainId: bigint;
  /** number of prefunded development accounts */
  accounts: number;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** `pretty` (one readable line per record) or `json` (pino JSON lines); absent = pretty on a terminal */
  logFormat: "pretty" | "json" | null;
}

export const DEFAULT_DATA_DIR = ".cowboy/devnet";
/** Chain id of devnets (a fresh `--chain-id` gives an incompatible chain). */
export const DEVNET_CHAIN_ID = 7_777n;

export const DEFAULT_DEVNET_CONFIG: Readonly<DevnetConfig> = {
  dataDir: resolve(DEFAULT_DATA_DIR),
  rpcHost: "127.0.0.1",
  rpcPort: 8545,
  blockTime: { kind: "interval", ms: 1000 },
  reset: false,
  chainId: DEVNET_CHAIN_ID,
  accounts: 10,
  logLevel: "info",
  logFormat: null,
};

export class ConfigError extends Error {
  readonly code = "ERR_DEVNET_CONFIG";
  readonly option: string;

  constructor(option: string, message: string) {
    super(`--${option}: ${message}`);
    this.name = "ConfigError";
    this.option = option;
  }
}

/** Parses a `--block-time` value: milliseconds (≥ 1), `0` = as fast as possible, `auto` = on demand. */
export function parseBlockTime(text: string): BlockTime {
  if (text === "auto" || text === "on-demand") return { kind: "on-demand" };
  if (!/^(0|[1-9][0-9]{0,7})$/.test(text)) {
    throw new ConfigError(
      "block-time",
      `expected milliseconds (1..99999999), 0 for as fast as possible, or "auto" for only when there are transactions; got "${text}"`,
    );
  }
  const ms = Number(text);
  return ms === 0 ? { kind: "instant" } : { kind: "interval", ms };
}

function int(option: string, text: string, min: number, max: number): number {
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(option, `expected an integer from ${min} to ${max}, got "${text}"`);
  }
  return Number(text);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The options' help text (shared by `cowboyd --help` and `cowboy devnet --help`). */
export const DEVNET_OPTIONS_HELP = `  --data-dir DIR       chain data (default ./${DEFAULT_DATA_DIR})
  --rpc-host HOST      JSON-RPC listen address (default 127.0.0.1)
  --rpc-port PORT      JSON-RPC port, HTTP and WebSocket (default 8545; 0 = any free port)
  --block-time MS      block interval in ms (default 1000); 0 = as fast as possible;
                       auto = only when there are transactions
  --reset              delete the data directory first and start a new chain
  --chain-id N         chain id of a new chain (default ${DEVNET_CHAIN_ID})
  --accounts N         prefunded development accounts (default 10)
  --log-level LEVEL    fatal|error|warn|info|debug|trace|silent (default info)
  --log-format FORMAT  pretty|json (default pretty on a terminal, json otherwise)`;

/** Parses command-line arguments (without node and script paths) into a config. */
export function parseDevnetArgs(
  argv: readonly string[],
  cwd: string = process.cwd(),
): DevnetConfig & { help: boolean } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        "data-dir": { type: "string" },
        "rpc-host": { type: "string" },
        "rpc-port": { type: "string" },
        "block-time": { type: "string" },
        reset: { type: "boolean" },
        "chain-id": { type: "string" },
        accounts: { type: "string" },
        "log-level": { type: "string" },
        "log-format": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new ConfigError("args", (err as Error).message);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : undefined);
  const config: DevnetConfig & { help: boolean } = {
    ...DEFAULT_DEVNET_CONFIG,
    dataDir: resolve(cwd, str("data-dir") ?? DEFAULT_DATA_DIR),
    help: v.help === true,
    reset: v.reset === true,
  };
  const host = str("rpc-host");
  if (host !== undefined) config.rpcHost = host;
  const port = str("rpc-port");
  if (port !== undefined) config.rpcPort = int("rpc-port", port, 0, 65535);
  const bt = str("block-time");
  if (bt !== undefined) config.blockTime = parseBlockTime(bt);
  const chainId = str("chain-id");
  if (chainId !== undefined) config.chainId = BigInt(int("chain-id", chainId, 1, 2 ** 31 - 1));
  const accounts = str("accounts");
  if (accounts !== undefined) config.accounts = int("accounts", accounts, 1, 1000);
  const level = str("log-level");
  if (level !== undefined) {
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new ConfigError("log-level", `expected one of ${LOG_LEVELS.join(", ")}, got "${level}"`);
    }
    config.logLevel = level as DevnetConfig["logLevel"];
  }
  const format = str("log-format");
  if (format !== undefined) {
    if (format !== "pretty" && format !== "json") {
      throw new ConfigError("log-format", `expected pretty or json, got "${format}"`);
    }
    config.logFormat = format;
  }
  return config;
}
