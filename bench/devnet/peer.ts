/**
 * Starts the peer chain of the devnet benchmark: a Hardhat network node
 * (`hardhat node`, automining one block per transaction — how users run it),
 * installed on demand from the npm registry into `bench/devnet/peer/`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PEER_DIR = join(dirname(fileURLToPath(import.meta.url)), "peer");

/** The well-known first development account of `hardhat node` (public test key). */
export const HARDHAT_DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
export const HARDHAT_CHAIN_ID = 31337n;

/** Installs Hardhat into bench/devnet/peer (pinned by its package-lock.json) when missing. */
export function ensurePeerInstalled(): void {
  if (existsSync(join(PEER_DIR, "node_modules", "hardhat", "package.json"))) return;
  process.stderr.write("bench devnet: installing the Hardhat peer from the npm registry\n");
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: PEER_DIR,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

export interface RunningPeer {
  url: string;
  version: string;
  stop(): Promise<void>;
}

/** Starts `hardhat node` on `port` and resolves once it answers JSON-RPC. */
export async function startHardhat(port: number): Promise<RunningPeer> {
  ensurePeerInstalled();
  const bin = join(PEER_DIR, "node_modules", ".bin", "hardhat");
  const child: ChildProcess = spawn(bin, ["node", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: PEER_DIR,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error("bench devnet: hardhat node did not start");
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pkg = JSON.parse(
    execFileSync("node", ["-p", "JSON.stringify(require('./node_modules/hardhat/package.json'))"], {
      cwd: PEER_DIR,
      encoding: "utf8",
    }),
  ) as { version: string };
  return {
    url,
    version: pkg.version,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
