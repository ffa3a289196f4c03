/**
 * One validator process: `node ts/node/src/validator/main.ts <config.json>` (see config.ts).
 * Logs are pino JSON lines on stdout; once serving it prints one line
 * `{"ev":"ready","index":i,"rpc":"http://…","ws":"ws://…","syncedTo":h}`. SIGINT/SIGTERM stop
 * it cleanly (voter, network, RPC, ledger writes, stores).
 */
import { writeSync } from "node:fs";
import { createLogger } from "../devnet/logger.ts";
import { readValidatorConfig } from "./config.ts";
import { ValidatorNode } from "./node.ts";

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write("usage: node ts/node/src/validator/main.ts <config.json>\n");
  process.exit(2);
}
const { file, config } = readValidatorConfig(path);
const logger = createLogger(file.logLevel ?? "info", "json");
const node = await ValidatorNode.open({ ...config, logger });
const urls = await node.start();
writeSync(
  1,
  `${JSON.stringify({ ev: "ready", index: config.index, rpc: urls.http, ws: urls.ws, syncedTo: node.app.tip() })}\n`,
);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  node.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err: (err as Error).message }, "stop failed");
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
