/**
 * One validator process: `cowboyd --config FILE` (or `node ts/node/src/validator/main.ts FILE`);
 * FILE is the config file of docs/validator.md (config.ts). Logs are pino JSON lines on
 * stdout; once serving it prints one line
 * `{"ev":"ready","index":i,"rpc":"http://…","ws":"ws://…","syncedTo":h}` (`index` is the network-file
 * position, null for a joining validator the file does not list). SIGINT/SIGTERM stop
 * it cleanly (voter, network, RPC, ledger writes, stores). A bad config exits with code 2 and
 * `ERR_VALIDATOR_CONFIG: <file>: <field>: <why>` on stderr.
 */
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadNative } from "@cowboy/consensus";
import { toHex } from "@cowboy/sdk";
import { createLogger } from "../devnet/logger.ts";
import { readValidatorConfig, ValidatorConfigError, type ValidatorSettings } from "./config.ts";
import { ValidatorNode } from "./node.ts";

/** Runs a validator from its config file until SIGINT/SIGTERM; resolves to the exit code. */
export async function runValidator(
  configPath: string,
  io: { out: (s: string) => void; err: (s: string) => void },
  prog = "cowboyd",
): Promise<number> {
  let settings: ValidatorSettings;
  try {
    const native = loadNative();
    settings = readValidatorConfig(configPath, (sk) => native.blsPublicKey(Buffer.from(sk)));
  } catch (err) {
    if (err instanceof ValidatorConfigError) {
      io.err(`${prog}: ${err.code}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const logger = createLogger(settings.logLevel, "json");
  if (settings.identity.networkIndex === null)
    logger.info(
      { address: toHex(settings.identity.address), blsKey: toHex(settings.identity.blsPublicKey) },
      "this key is not in the network file: following the chain; it votes from the first epoch whose set holds it (register it with `cowboy validator register`)",
    );
  let node: ValidatorNode;
  let urls: { http: string; ws: string };
  try {
    node = await ValidatorNode.open({ ...settings, logger });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    io.err(
      `${prog}: ${typeof code === "string" ? code : "ERR_VALIDATOR_START"}: ${(err as Error).message}\n`,
    );
    return 1;
  }
  try {
    urls = await node.start();
  } catch (err) {
    await node.stop().catch(() => {});
    const code = (err as { code?: unknown }).code;
    io.err(
      `${prog}: ${typeof code === "string" ? code : "ERR_VALIDATOR_START"}: ${(err as Error).message}\n`,
    );
    return 1;
  }
  writeSync(
    1,
    `${JSON.stringify({ ev: "ready", index: settings.identity.networkIndex, rpc: urls.http, ws: urls.ws, syncedTo: node.app.tip() })}\n`,
  );
  return await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      node.stop().then(
        () => resolve(0),
        (err: unknown) => {
          logger.error({ err: (err as Error).message }, "stop failed");
          resolve(1);
        },
      );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const path = process.argv[2];
  if (path === undefined) {
    process.stderr.write("usage: node ts/node/src/validator/main.ts <config.json>\n");
    process.exit(2);
  }
  const code = await runValidator(path, {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  });
  process.exit(code);
}
