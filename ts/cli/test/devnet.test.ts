/** `cowboy devnet`: the real CLI in a child process — help, option errors, start and Ctrl-C. */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "bin", "cowboy.js");

describe("cowboy devnet", () => {
  it("prints its options with --help", () => {
    const r = spawnSync(process.execPath, [BIN, "devnet", "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: cowboy devnet/);
    for (const opt of ["--data-dir", "--rpc-port", "--block-time", "--reset"])
      expect(r.stdout).toContain(opt);
  });

  it("names a bad option and exits 2", () => {
    const r = spawnSync(process.execPath, [BIN, "devnet", "--block-time", "soon"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ERR_DEVNET_CONFIG: --block-time/);
  });

  it("starts a chain, answers JSON-RPC, and stops with exit 0 on SIGINT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-cli-devnet-"));
    try {
      const child = spawn(
        process.execPath,
        [BIN, "devnet", "--data-dir", dir, "--rpc-port", "0", "--log-level", "warn"],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      child.stderr.on("data", (d: Buffer) => {
        out += d.toString();
      });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /JSON-RPC\s+(http:\/\/\S+)/.exec(out);
          if (m?.[1] !== undefined) resolve(m[1]);
        });
        child.on("exit", () => reject(new Error(`exited early:\n${out}`)));
      });
      expect(out).toContain(dir);
      expect(out).toMatch(/mnemonic\s+legend cinnamon/);
      const r = await fetch(url, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "cowboy_chainId", params: [] }),
      });
      expect(await r.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1e61" });
      const code = await new Promise<number | null>((resolve) => {
        child.on("exit", (c) => resolve(c));
        child.kill("SIGINT");
      });
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
