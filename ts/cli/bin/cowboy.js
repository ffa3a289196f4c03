#!/usr/bin/env node
// The `cowboy` command. Our TypeScript runs on Node >= 22 without a build step
// (type stripping). If this shim is started by an older Node (e.g. a machine's
// default Node 20 via `npx cowboy`), it re-runs itself with the Node 22 that
// `npm test` / `npm run setup` installed into .tooling/.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const major = Number(process.versions.node.split(".")[0]);
if (major >= 22) {
  const { main } = await import("../src/main.ts");
  process.exitCode = await main(process.argv.slice(2));
} else {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  const tooling = join(root, ".tooling");
  const candidates = existsSync(tooling) ? readdirSync(tooling).filter((d) => d.startsWith("node-")) : [];
  let node = null;
  for (const dir of candidates) {
    const modules = join(tooling, dir, "node_modules");
    for (const pkg of existsSync(modules) ? readdirSync(modules) : []) {
      const bin = join(modules, pkg, "bin", "node");
      if (pkg.startsWith("node-") && existsSync(bin)) node = bin;
    }
  }
  if (node === null) {
    process.stderr.write("cowboy: needs Node >= 22; run `npm run setup` once to install it into .tooling/\n");
    process.exit(1);
  }
  const result = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(result.status ?? 1);
}
