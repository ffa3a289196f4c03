/**
 * `cowboyd`: the devnet process. Parses the options (see `--help`), opens the chain in the
 * data directory over the authenticated state store (crates/qmdb through the addon) and
 * the state transition function, prints the development accounts, serves JSON-RPC and
 * metrics, and produces blocks until SIGINT/SIGTERM, which stop it cleanly (the block in
 * progress is finished and recorded first). Run directly:
 *
 *     node ts/node/src/cowboyd.ts --rpc-port 8545 --block-time 1000
 *
 * or through `npx cowboy devnet` / `npm run devnet`.
 *
 * `cowboyd --config FILE` runs a validator of a multi-validator network instead (the config
 * file of docs/validator.md; ts/node/src/validator/main.ts) — what `cowboy localnet` starts
 * for each of its validators, and what each machine of a real network runs.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { toHex } from "@cowboy/sdk";
import { FAUCET_BALANCE } from "./devnet/accounts.ts";
import { ConfigError, DEVNET_OPTIONS_HELP, type DevnetConfig, parseDevnetArgs } from "./devnet/config.ts";
import { createLogger, type Logger } from "./devnet/logger.ts";
import { DevnetMetrics } from "./devnet/metrics.ts";
import { DevnetNode, type OpenState } from "./devnet/node.ts";
import { UNITS_PER_CBY } from "./params.ts";
import { QmdbState } from "./state/qmdb.ts";
import { Chain } from "./stf/index.ts";
import type { ActorExecutor, StateBackend } from "./stf/types.ts";

/** The actor runtime of the addon bound to `state`, or null when the addon has none yet. */
function actorExecutor(state: QmdbState): ActorExecutor | null {
  const native = createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>;
  const execute = native.executeActor;
  if (typeof execute !== "function") return null;
  return (req) => execute(state.db, req);
}

/** Opens the production state store: qmdb through the addon, with the STF over it. */
export const openQmdbState: OpenState = (dir) => {
  mkdirSync(dir, { recursive: true });
  const state = QmdbState.open(dir);
  return {
    version: () => state.version(),
    root: () => state.root(),
    createChain: (genesis, head) =>
      Chain.create({
        state: state as unknown as StateBackend,
        genesis,
        executor: actorExecutor(state),
        ...(head === undefined ? {} : { head }),
      }),
    scanKeys: (prefix, limit) => state.scanPrefix(prefix, limit).map((e) => e.key),
    close: () => {
      if (!state.closed) state.close();
    },
  };
};

function cby(units: bigint): string {
  const whole = units / UNITS_PER_CBY;
  const frac = units % UNITS_PER_CBY;
  return frac === 0n ? `${whole}` : `${whole}.${frac.toString().padStart(9, "0").replace(/0+$/, "")}`;
}

function banner(node: DevnetNode, urls: { http: string; ws: string }, config: DevnetConfig): string {
  const bt = config.blockTime;
  const mode =
    bt.kind === "interval"
      ? `a block every ${bt.ms} ms`
      : bt.kind === "instant"
        ? "blocks back to back, as fast as possible"
        : "a block only when transactions arrive";
  const lines = [
    "",
    "Cowboy devnet",
    `  chain id     ${node.chainId}`,
    `  data dir     ${config.dataDir}`,
    `  JSON-RPC     ${urls.http}  (WebSocket ${urls.ws})`,
    `  metrics      ${urls.http}metrics`,
    `  blocks       ${mode}`,
    `  head         #${node.head().height}`,
    "",
    "Development accounts (public test keys: never use them for anything of value)",
    `  mnemonic     ${node.keys.mnemonic}`,
    "",
  ];
  node.keys.accounts.forEach((k, i) => {
    lines.push(`  (${i}) ${toHex(k.address)}  key ${toHex(k.secretKey)}`);
  });
  lines.push(
    "",
    `  faucet       ${toHex(node.keys.faucet.address)} (${cby(FAUCET_BALANCE)} CBY at genesis; cowboy_faucet sends from it)`,
    `  validator    ${toHex(node.keys.validator.address)} (receives tips and block rewards)`,
    "",
    "Ctrl-C stops the node; starting it again continues the same chain (--reset starts afresh).",
    "",
  );
  return lines.join("\n");
}

/** Runs the devnet until a signal; resolves to the process exit code. */
export async function runDevnet(
  argv: readonly string[],
  io: { out: (s: string) => void; err: (s: string) => void },
  prog = "cowboyd",
): Promise<number> {
  let config: ReturnType<typeof parseDevnetArgs>;
  try {
    config = parseDevnetArgs(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`${prog}: ${err.code}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (config.help) {
    io.out(
      `Usage: ${prog} [options]\n       cowboyd --config FILE\n\nStarts a single-node Cowboy devnet, or with --config a validator of a multi-validator\nnetwork (docs/validator.md).\n\nOptions:\n${DEVNET_OPTIONS_HELP}\n  -h, --help           this help\n`,
    );
    return 0;
  }
  const logger: Logger = createLogger(
    config.logLevel,
    config.logFormat ?? (process.stdout.isTTY === true ? "pretty" : "json"),
  );
  const metrics = new DevnetMetrics();
  let node: DevnetNode;
  try {
    node = await DevnetNode.open(config, { openState: openQmdbState, logger, metrics });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    io.err(`${prog}: ${typeof code === "string" ? code : "ERR_DEVNET_START"}: ${(err as Error).message}\n`);
    return 1;
  }
  let urls: { http: string; ws: string };
  try {
    urls = await node.start();
  } catch (err) {
    await node.stop();
    const code = (err as { code?: unknown }).code;
    if (code === "EADDRINUSE") {
      io.err(
        `${prog}: ERR_DEVNET_RPC_PORT: ${config.rpcHost}:${config.rpcPort} is in use (another devnet?); choose another --rpc-port\n`,
      );
      return 1;
    }
    io.err(`${prog}: ${typeof code === "string" ? code : "ERR_DEVNET_START"}: ${(err as Error).message}\n`);
    return 1;
  }
  io.out(banner(node, urls, config));
  logger.info(
    { http: urls.http, dataDir: config.dataDir, head: String(node.head().height) },
    "devnet started",
  );
  return await new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting");
        resolve(1);
        return;
      }
      stopping = true;
      logger.info({ signal }, "stopping");
      node.stop().then(
        () => {
          logger.info({ head: String(node.head().height) }, "stopped");
          resolve(0);
        },
        (err: unknown) => {
          logger.error({ err }, "error while stopping");
          resolve(1);
        },
      );
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

/**
 * The `--config FILE` form (a validator), or null for the devnet's options. `--config` must be
 * the only option: everything else is in the file.
 */
export function validatorConfigArg(argv: readonly string[]): string | null | Error {
  const i = argv.findIndex((a) => a === "--config" || a.startsWith("--config="));
  if (i < 0) return null;
  const a = argv[i] as string;
  const path = a.startsWith("--config=") ? a.slice("--config=".length) : argv[i + 1];
  const rest = argv.length - (a.startsWith("--config=") ? 1 : 2);
  if (path === undefined || path === "") return new Error("--config needs a file");
  if (rest !== 0) return new Error("--config takes no other options (set them in the config file)");
  return path;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
  const argv = process.argv.slice(2);
  const config = validatorConfigArg(argv);
  let code: number;
  if (config instanceof Error) {
    io.err(`cowboyd: ERR_VALIDATOR_CONFIG: ${config.message}\n`);
    code = 2;
  } else if (config !== null) {
    const { runValidator } = await import("./validator/main.ts");
    code = await runValidator(config, io);
  } else code = await runDevnet(argv, io);
  process.exit(code);
}
