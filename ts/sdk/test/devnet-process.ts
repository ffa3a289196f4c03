/**
 * Starts the real devnet (`ts/node/src/cowboyd.ts`) as a child process on a free port
 * with a temporary data directory, the way the devnet's own end-to-end tests do, and
 * resolves once its banner names the JSON-RPC URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const COWBOYD = join(import.meta.dirname, "..", "..", "node", "src", "cowboyd.ts");

export interface Devnet {
  http: string;
  ws: string;
  dir: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function startDevnet(args: string[] = []): Promise<Devnet> {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-sdk-devnet-"));
  const child = spawn(
    process.execPath,
    [COWBOYD, "--data-dir", dir, "--rpc-port", "0", "--log-level", "warn", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`cowboyd did not start within 60 s:\n${out}`));
    }, 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /JSON-RPC\s+(http:\/\/\S+)\s+\(WebSocket\s+(ws:\/\/\S+)\)/.exec(out);
      if (m?.[1] !== undefined && m[2] !== undefined) {
        clearTimeout(timer);
        resolve({ http: m[1], ws: m[2], dir, child, output: () => out, stop });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`cowboyd exited (${code ?? signal}):\n${out}`));
    });
  });
}
