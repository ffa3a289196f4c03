/**
 * The chain commands (`init`, `status`, `balance`, `block`, `receipt`, `deploy`,
 * `send`, `call`, `transfer`, `logs`, `timers`, `faucet`, `tx send`, `tx get`) run
 * in process against an in-memory chain behind the real RPC modules
 * (ts/sdk/test/client-fixture.ts), with captured output: human and `--json`
 * forms, exit codes, and errors that name the fix.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addressFromSecretKey,
  createWalletClient,
  deriveSecretKey,
  encodeArgs,
  encodeTransaction,
  fromHex,
  mnemonicToSeed,
  signTransaction,
  toHex,
  toHexRaw,
  utf8,
} from "@cowboy/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MiniChain, startMiniNode } from "../../sdk/test/client-fixture.ts";
import { DEVNET_MNEMONIC, parseAmount } from "../src/chain/context.ts";
import { setIo } from "../src/io.ts";
import { main } from "../src/main.ts";
import { formatCby, table } from "../src/ui.ts";

let node: Awaited<ReturnType<typeof startMiniNode>>;
let chain: MiniChain;
let dir: string;
const DEV0_KEY = deriveSecretKey(mnemonicToSeed(DEVNET_MNEMONIC), "m/44'/60'/0'/0/0");
const DEV0 = addressFromSecretKey(DEV0_KEY);
const ACTOR = `0x${"ac".repeat(20)}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cowboy(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const restore = setIo({
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: { COWBOY_RPC: node.http, ...env },
    cwd: () => dir,
    isTTY: false,
  });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    restore();
  }
}

beforeAll(async () => {
  node = await startMiniNode();
  chain = node.chain;
  chain.fund(DEV0, 10n ** 15n);
  chain.autoMine = true;
});
afterAll(async () => {
  await node.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cowboy-cli-chain-"));
});

describe("cowboy init", () => {
  it("scaffolds a project and refuses to overwrite it", async () => {
    const r = await cowboy(["init", "counter"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/created counter in counter/);
    const config = JSON.parse(readFileSync(join(dir, "counter", "cowboy.json"), "utf8"));
    expect(config).toEqual({ name: "counter", actor: "actor.py", rpc: "http://127.0.0.1:8545" });
    expect(readFileSync(join(dir, "counter", "actor.py"), "utf8")).toMatch(/from cowboy_sdk import actor/);
    expect(existsSync(join(dir, "counter", "tests", "test_actor.py"))).toBe(true);
    const again = await cowboy(["init", "counter"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^cowboy: ERR_EXISTS: .*already exist.*choose an empty directory/);
  });

  it("checks the project name", async () => {
    const r = await cowboy(["init", ".", "--name", "9lives"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ERR_ARG: project name '9lives' must start with a letter/);
  });
});

describe("reads", () => {
  it("status", async () => {
    const r = await cowboy(["status"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/chain id\s+7\n/);
    const j = JSON.parse((await cowboy(["status", "--json"])).stdout);
    expect(j.chainId).toBe("7");
  });

  it("balance of an address, of --dev 0, as JSON", async () => {
    const other = `0x${"77".repeat(20)}`;
    chain.fund(fromHex(other), 1_500_000_000n);
    const r = await cowboy(["balance", other]);
    expect(r.stdout).toBe(`1.5 CBY  1500000000 base units, ${other}\n`);
    const mine = JSON.parse((await cowboy(["balance", "--dev", "0", "--json"])).stdout);
    expect(mine.address).toBe(toHex(DEV0));
    expect(BigInt(mine.balance)).toBeGreaterThan(0n);
  });

  it("block by tag, number and hash; unknown blocks", async () => {
    const latest = await cowboy(["block"]);
    expect(latest.code).toBe(0);
    expect(latest.stdout).toMatch(/^block\s+\d+/m);
    const genesis = JSON.parse((await cowboy(["block", "0", "--json"])).stdout);
    expect(genesis.number).toBe("0x0");
    const byHash = await cowboy(["block", genesis.hash, "--json"]);
    expect(JSON.parse(byHash.stdout).hash).toBe(genesis.hash);
    const missing = await cowboy(["block", "999999"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/ERR_NOT_FOUND: block 999999 does not exist \(see `cowboy status`/);
    const bad = await cowboy(["block", "yesterday"]);
    expect(bad.stderr).toMatch(/ERR_ARG: block must be latest/);
  });

  it("timers and an unreachable node", async () => {
    const r = await cowboy(["timers", ACTOR]);
    expect(r.stdout).toMatch(/fires at\s+handler\s+every\s+id\n10\s+tick\s+5 blocks\s+0x/);
    const down = await cowboy(["status", "--rpc", "http://127.0.0.1:9/"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^cowboy: ERR_RPC_NETWORK: cannot reach the node at http:\/\/127\.0\.0\.1:9\/: start one with `npx cowboy devnet`/,
    );
  });

  it("faucet", async () => {
    const who = `0x${"66".repeat(20)}`;
    const r = await cowboy(["faucet", who, "--amount", "2cby"]);
    expect(r.code).toBe(0);
    expect(chain.account(fromHex(who)).balance).toBe(2_000_000_000n);
  });
});

describe("writes", () => {
  it("deploy, send, call, receipt, logs", async () => {
    writeFileSync(join(dir, "actor.py"), "class A:\r\n    pass\r\n");
    const d = await cowboy(["deploy", "actor.py", "--dev", "0", "--args", "[10]", "--json"]);
    expect(d.stderr).toBe("");
    expect(d.code).toBe(0);
    const deployed = JSON.parse(d.stdout);
    expect(deployed.status).toBe("success");
    expect(deployed.actor).toBe(deployed.contractAddress);
    const human = await cowboy(["deploy", "actor.py", "--dev", "0"]);
    expect(human.stdout).toMatch(/^deployed 0x[0-9a-f]{40}\n/);
    const quiet = await cowboy(["deploy", "actor.py", "--dev", "0", "-q"]);
    expect(quiet.stdout).toMatch(/^0x[0-9a-f]{40}\n$/);

    const s = await cowboy(["send", ACTOR, "echo", '[5, "x", {"$bytes": "0x01"}]', "--dev", "0"]);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/status\s+success/);
    expect(s.stdout).toMatch(/result\s+\[5, 'x', b'\\x01'\]/);
    const sj = JSON.parse(
      (await cowboy(["send", ACTOR, "echo", "[1180591620717411303424]", "--dev", "0", "--json"])).stdout,
    );
    expect(sj.result).toEqual([{ $int: "1180591620717411303424" }]);

    const failing = await cowboy(["send", ACTOR, "fail", "[]", "--dev", "0"]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/status\s+reverted/);
    expect(failing.stdout).toMatch(/error\s+ValueError: told to fail/);
    expect(failing.stderr).toBe(
      "cowboy: ERR_TX_REVERTED: the transaction reverted: ValueError: told to fail\n",
    );

    const c = await cowboy(["call", ACTOR, "echo", "[1, 2]"]);
    expect(c.stdout).toMatch(/^result\s+\[1, 2\]\ncycles\s+5,000\ncells\s+10\nfee estimate/);
    const cf = await cowboy(["call", ACTOR, "fail"]);
    expect(cf.code).toBe(1);
    expect(cf.stdout).toMatch(/error\s+ValueError: told to fail/);

    const following = cowboy(["logs", ACTOR, "--follow", "--count", "1", "--topic", "Ping", "--json"]);
    let done = false;
    void following.then(() => {
      done = true;
    });
    // sent through the SDK, not the CLI: one in-process CLI run at a time owns the captured output.
    // The follower sees events from blocks after its subscription started, which a slow machine
    // may reach late: emit again until it has one (every emit carries the same event)
    const wallet = createWalletClient({ transport: node.http, secretKey: DEV0_KEY });
    for (let i = 0; i < 50 && !done; i++) {
      await wallet.waitForTransactionReceipt((await wallet.sendCall(fromHex(ACTOR), "emit", ["hello"])).hash);
      await new Promise((r) => setTimeout(r, 200));
    }
    const followed = await following;
    expect(followed.code).toBe(0);
    expect(JSON.parse(followed.stdout.trim().split("\n").at(-1) as string).decoded).toEqual(["hello"]);
    const logs = await cowboy(["logs", ACTOR, "--from-block", "0", "--topic", "Ping"]);
    expect(logs.stdout).toMatch(/Ping\s+\['hello'\]/);
    const logsJson = JSON.parse((await cowboy(["logs", ACTOR, "--from-block", "0", "--json"])).stdout);
    expect(logsJson.at(-1).decoded).toEqual(["hello"]);

    const hash = JSON.parse(
      (await cowboy(["send", ACTOR, "echo", "[3]", "--dev", "0", "--json"])).stdout,
    ).transactionHash;
    const rc = await cowboy(["receipt", hash]);
    expect(rc.stdout).toMatch(/status\s+success/);
    expect(rc.stdout).toMatch(/fee paid\s+0\.000211 CBY \(211000 base units\)/);
  });

  it("--no-wait returns the hash; receipt of a pending and an unknown transaction", async () => {
    chain.autoMine = false;
    try {
      const r = await cowboy(["transfer", `0x${"55".repeat(20)}`, "7", "--dev", "0", "--no-wait", "--json"]);
      const hash = JSON.parse(r.stdout).transactionHash;
      const pending = await cowboy(["receipt", hash]);
      expect(pending.stderr).toMatch(/is pending, not yet in a block \(retry, or pass --wait\)/);
      const tx = await cowboy(["tx", "get", hash]);
      expect(tx.stdout).toMatch(/status\s+pending/);
      chain.mine();
      const done = await cowboy(["receipt", hash, "--wait", "2000", "--json"]);
      expect(JSON.parse(done.stdout).status).toBe("success");
      const unknown = await cowboy(["receipt", `0x${"00".repeat(32)}`]);
      expect(unknown.stderr).toMatch(/no transaction 0x0+ on this node/);
    } finally {
      chain.autoMine = true;
    }
  });

  it("tx send signs an unsigned JSON transaction, or sends signed hex as is", async () => {
    const nonce = chain.pendingNonce(DEV0);
    const json = JSON.stringify({
      chainId: "7",
      nonce: nonce.toString(),
      instruction: { kind: "transfer", to: `0x${"33".repeat(20)}`, amount: "9" },
      cyclesLimit: "50000",
      cellsLimit: "50000",
      maxFeePerCycle: "100",
      maxFeePerCell: "100",
      maxPriorityFeePerCycle: "0",
      maxPriorityFeePerCell: "0",
      from: toHex(DEV0),
    });
    const r = await cowboy(["tx", "send", json, "--dev", "0", "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).status).toBe("success");
    expect(chain.account(fromHex(`0x${"33".repeat(20)}`)).balance).toBe(9n);
    const unsigned = await cowboy(["tx", "send", json]);
    expect(unsigned.stderr).toMatch(/ERR_NO_SIGNER: no account to sign with: pass --dev 0/);
    const signed = signTransaction(
      {
        chainId: 7n,
        nonce: nonce + 1n,
        instruction: { kind: "call", to: fromHex(ACTOR), handler: "echo", args: encodeArgs([1n]), value: 0n },
        cyclesLimit: 50_000n,
        cellsLimit: 50_000n,
        maxFeePerCycle: 100n,
        maxFeePerCell: 100n,
        maxPriorityFeePerCycle: 0n,
        maxPriorityFeePerCell: 0n,
        from: DEV0,
        accessList: null,
        metadata: utf8(""),
        originTxHash: null,
        originRemainingCycles: null,
        originRemainingCells: null,
        signature: new Uint8Array(65),
        additionalSigners: [],
      },
      DEV0_KEY,
    );
    const s = await cowboy(["tx", "send", toHexRaw(encodeTransaction(signed))]);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/result\s+\[1\]/);
  });

  it("sending errors name the fix", async () => {
    const noKey = await cowboy(["send", ACTOR, "echo"]);
    expect(noKey.stderr).toMatch(/ERR_NO_SIGNER/);
    const stale = await cowboy(["transfer", ACTOR, "1", "--dev", "0", "--nonce", "0"]);
    expect(stale.stderr).toMatch(
      /^cowboy: ERR_MEMPOOL_NONCE_TOO_LOW: .*\(a transaction with this nonce was already sent; retry without --nonce\)/,
    );
    const badArgs = await cowboy(["send", ACTOR, "echo", "{1}", "--dev", "0"]);
    expect(badArgs.stderr).toMatch(/ERR_VALUE_JSON/);
    const badAddr = await cowboy(["send", "0x12", "echo", "--dev", "0"]);
    expect(badAddr.stderr).toMatch(/ERR_ARG: actor must be 0x followed by 40 hex digits/);
    const noFile = await cowboy(["deploy", "--dev", "0"]);
    expect(noFile.stderr).toMatch(/name the actor file .* or run inside a project made by `cowboy init`/);
    const key = await cowboy(["send", ACTOR, "echo", "--key", "nobody", "--keys-dir", dir]);
    expect(key.stderr).toMatch(/ERR_KEY_NOT_FOUND: no key named "nobody".*cowboy keys new --name nobody/);
  });

  it("deploy inside a project uses cowboy.json", async () => {
    await cowboy(["init", "."]);
    const r = await cowboy(["deploy", "--dev", "0", "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).status).toBe("success");
  });
});

describe("formatting", () => {
  it("a spinner shows on a terminal while waiting for a receipt, and is cleared", async () => {
    let stderr = "";
    let stdout = "";
    const restore = setIo({
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env: { COWBOY_RPC: node.http, NO_COLOR: "1" },
      cwd: () => dir,
      isTTY: true,
    });
    try {
      chain.autoMine = false;
      const mining = setTimeout(() => chain.mine(), 300);
      expect(await main(["transfer", `0x${"44".repeat(20)}`, "1", "--dev", "0"])).toBe(0);
      clearTimeout(mining);
    } finally {
      chain.autoMine = true;
      restore();
    }
    expect(stderr).toMatch(/^\r⠋ waiting for 0x[0-9a-f]{10}… to be included 0\.\d s/);
    expect(stderr.endsWith("\r\u001b[2K")).toBe(true);
    expect(stdout).toMatch(/status\s+success/);
  });

  it("amounts", () => {
    expect(parseAmount("1.5cby")).toBe(1_500_000_000n);
    expect(parseAmount("2 CBY")).toBe(2_000_000_000n);
    expect(parseAmount("0.000000001cby")).toBe(1n);
    expect(parseAmount("1500")).toBe(1500n);
    expect(() => parseAmount("1.5")).toThrow(/1\.5cby/);
    expect(() => parseAmount("0.0000000001cby")).toThrow();
    expect(() => parseAmount("18446744073709551616")).toThrow(/2\^64-1/);
    expect(formatCby(1_234_567_000_000_000n)).toBe("1,234,567 CBY");
    expect(formatCby(1n)).toBe("0.000000001 CBY");
  });

  it("colours only on a terminal or with FORCE_COLOR, never with NO_COLOR", () => {
    const plain = table(["a", "bb"], [["xxx", "y"]]);
    expect(plain).toBe("a    bb\nxxx  y\n");
    const restore = setIo({ env: { FORCE_COLOR: "1" } });
    try {
      const coloured = table(["a", "bb"], [["xxx", "y"]]);
      expect(coloured).toBe("\u001b[1ma\u001b[22m    \u001b[1mbb\u001b[22m\nxxx  y\n");
    } finally {
      restore();
    }
    const restore2 = setIo({ env: { NO_COLOR: "1" }, isTTY: true });
    try {
      expect(table(["a"], [])).toBe("a\n");
    } finally {
      restore2();
    }
  });
});
