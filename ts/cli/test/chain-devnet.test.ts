/**
 * The chain commands end to end against the real devnet (`cowboyd` as a child process):
 * status, balance, transfer (signed with a development account, fees from the node),
 * receipt, block with its transactions, tx get, faucet — human and JSON output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../../sdk/test/devnet-process.ts";
import { setIo } from "../src/io.ts";
import { main } from "../src/main.ts";

let devnet: Devnet;
const hasRuntime = (() => {
  try {
    return (
      typeof (createRequire(import.meta.url)("@cowboy/native") as Record<string, unknown>).executeActor ===
      "function"
    );
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), "cowboy-cli-devnet-"));

async function cowboy(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const restore = setIo({
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: { COWBOY_RPC: devnet.http },
    cwd: () => dir,
    isTTY: false,
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    restore();
  }
}

beforeAll(async () => {
  devnet = await startDevnet(["--block-time", "100"]);
}, 90_000);
afterAll(async () => {
  await devnet?.stop();
});

describe("cowboy on the devnet", () => {
  it("status and balances", async () => {
    const s = await cowboy(["status"]);
    expect(s.stderr).toBe("");
    expect(s.stdout).toMatch(/chain id\s+7777/);
    const b = await cowboy(["balance", "--dev", "0"]);
    expect(b.stdout).toMatch(
      /^1,000,000 CBY {2}1000000000000000 base units, 0x0290abee006f67c444ef444e7fbe9122d0a84612\n$/,
    );
  });

  it("transfer, receipt, block, tx get", async () => {
    const to = "0x00000000000000000000000000000000000000aa";
    const t = await cowboy(["transfer", to, "1.5cby", "--dev", "1", "--json"]);
    expect(t.stderr).toBe("");
    expect(t.code).toBe(0);
    const receipt = JSON.parse(t.stdout);
    expect(receipt.status).toBe("success");
    const b = await cowboy(["balance", to, "--block", BigInt(receipt.blockNumber).toString()]);
    expect(b.stdout).toMatch(/^1\.5 CBY/);
    const r = await cowboy(["receipt", receipt.transactionHash]);
    expect(r.stdout).toMatch(/status\s+success/);
    expect(r.stdout).toMatch(/to\s+0x0+aa/);
    const block = await cowboy(["block", BigInt(receipt.blockNumber).toString(), "--txs"]);
    expect(block.stdout).toMatch(/#\s+hash\s+from\s+kind\s+to/);
    expect(block.stdout).toContain(receipt.transactionHash);
    const tx = await cowboy(["tx", "get", receipt.transactionHash]);
    expect(tx.stdout).toMatch(/status\s+block \d+, index \d+/);
  }, 60_000);

  it("faucet", async () => {
    const who = "0x00000000000000000000000000000000000000bb";
    const f = await cowboy(["faucet", who, "--amount", "3cby"]);
    expect(f.code).toBe(0);
    const hash = /transaction (0x[0-9a-f]{64})/.exec(f.stdout)?.[1] as string;
    await cowboy(["receipt", hash, "--wait", "30000"]);
    expect((await cowboy(["balance", who])).stdout).toMatch(/^3 CBY/);
  }, 60_000);

  it.skipIf(!hasRuntime)(
    "init, deploy, send, call, logs with an actor (needs the actor runtime)",
    async () => {
      expect((await cowboy(["init", "."])).code).toBe(0);
      writeFileSync(
        join(dir, "actor.py"),
        `from cowboy_sdk import actor, emit


@actor
class Counter:
    def __init__(self, start: int = 0):
        self.storage["count"] = start

    def increment(self, by: int = 1) -> int:
        if by <= 0:
            raise ValueError("by must be positive")
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self) -> int:
        return self.storage["count"]
`,
      );
      const d = await cowboy(["deploy", "--dev", "2", "--args", "[10]", "-q"]);
      expect(d.stderr).toBe("");
      const actor = d.stdout.trim();
      expect(actor).toMatch(/^0x[0-9a-f]{40}$/);
      const s = await cowboy(["send", actor, "increment", "[5]", "--dev", "2"]);
      expect(s.stdout).toMatch(/status\s+success/);
      expect(s.stdout).toMatch(/result\s+15/);
      expect(s.stdout).toMatch(/Incremented\s+15/); // the receipt's events, topics decoded
      const c = await cowboy(["call", actor, "get"]);
      expect(c.stdout).toMatch(/^result\s+15$/m);
      const bad = await cowboy(["send", actor, "increment", "[0]", "--dev", "2"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(
        /ERR_TX_REVERTED: the transaction reverted: ERR_EXEC_HANDLER: ValueError: by must be positive/,
      );
      const logs = await cowboy(["logs", actor, "--from-block", "0", "--topic", "Incremented", "--json"]);
      const events = JSON.parse(logs.stdout);
      expect(events.map((e: { decoded: unknown }) => e.decoded)).toEqual([15]);
      expect(events[0].topics).toEqual(["Incremented"]);
    },
    90_000,
  );
});
