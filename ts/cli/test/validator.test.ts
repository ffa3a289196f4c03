/**
 * `cowboy validator …`: key generation offline (the node's key-file fields, mode 0600, the
 * proof of possession verifying, secrets printed only when asked), then the operator
 * walk-through of docs/validator.md run line by line against the real devnet (`cowboyd` as a
 * child process) — lines marked `# error: CODE` must fail with that code — and the typed
 * errors with their fixes.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  addressFromSecretKey,
  createPublicClient,
  deriveSecretKey,
  fromHex,
  mnemonicToSeed,
  toHex,
} from "@cowboy/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readKeyFile } from "../../node/src/validator/config.ts";
import { method, RpcDispatcher, RpcServer, ValidatorsModule } from "../../rpc/src/index.ts";
import { type Devnet, startDevnet } from "../../sdk/test/devnet-process.ts";
import { startShortEpochDevnet } from "../../sdk/test/validator-devnet.ts";
import { parseCby, validatorFailure } from "../src/commands/validator.ts";
import { setIo } from "../src/io.ts";
import { main } from "../src/main.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const DEV5 = toHex(addressFromSecretKey(deriveSecretKey(mnemonicToSeed(MNEMONIC), "m/44'/60'/0'/0/5")));
const native = createRequire(import.meta.url)("@cowboy/native") as {
  blsPublicKey(sk: Buffer): Buffer;
  blsVerifyProofOfPossession(pk: Buffer, chainId: bigint, proof: Buffer): boolean;
};

let devnet: Devnet | { http: string; stop(): Promise<void> } | null = null;

async function cowboy(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const restore = setIo({
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: {
      ...(devnet === null ? { COWBOY_RPC: "http://127.0.0.1:9/" } : { COWBOY_RPC: devnet.http }),
      ...env,
    },
    cwd: () => cwd,
    isTTY: false,
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    restore();
  }
}

describe("parseCby", () => {
  it("reads CBY exactly and refuses anything else", () => {
    expect(parseCby("10000")).toBe(10_000_000_000_000n);
    expect(parseCby("0.000000001")).toBe(1n);
    expect(parseCby("12000cby")).toBe(12_000_000_000_000n);
    expect(parseCby("1.5 CBY")).toBe(1_500_000_000n);
    expect(() => parseCby("1.0000000001")).toThrow(/up to 9 decimals/);
    expect(() => parseCby("-5")).toThrow(/--stake takes CBY/);
    expect(() => parseCby("18446744074")).toThrow(/exceeds 2\^64-1/);
  });
});

describe("validatorFailure", () => {
  const receipt = (error: string | null, status = "reverted") =>
    ({ transactionHash: new Uint8Array(32), status, error, from: new Uint8Array(20).fill(0xab) }) as never;

  it("turns receipt errors into CLI errors with the fix", () => {
    const low = validatorFailure(
      receipt("ERR_VALIDATOR_STAKE_TOO_LOW: stake 5 is below the minimum 10000500000000"),
    );
    expect([low.code, low.message]).toEqual([
      "ERR_VALIDATOR_STAKE_TOO_LOW",
      "0.000000005 CBY is below the minimum stake of 10,000.5 CBY: pass --stake 10001 or more",
    ]);
    const poor = validatorFailure(receipt("ERR_VALIDATOR_BALANCE: balance 3000000000 < stake 9000000000"));
    expect(poor.message).toBe(
      `the operator holds 3 CBY, less than the stake: fund 0x${"ab".repeat(20)} (on a devnet: \`npx cowboy faucet 0x${"ab".repeat(20)}\`) or stake less`,
    );
    const jailed = validatorFailure(receipt("ERR_VALIDATOR_STILL_JAILED: ab is jailed until height 77"));
    expect(jailed.message).toBe("ab is jailed until height 77: wait until block 77, then unjail again");
    const other = validatorFailure(receipt("ERR_OUT_OF_CYCLES: limit", "outOfCycles"));
    expect([other.code, other.message]).toEqual([
      "ERR_TX_OUTOFCYCLES",
      "the transaction outOfCycles: ERR_OUT_OF_CYCLES: limit",
    ]);
  });
});

describe("cowboy validator keygen (offline)", () => {
  it("writes the node's key-file fields with mode 0600 and a public file whose proof verifies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-keygen-"));
    const r = await cowboy(["validator", "keygen", "--chain-id", "42", "--out", "v.key"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const key = JSON.parse(readFileSync(join(dir, "v.key"), "utf8"));
    // the fields of ts/node/src/validator/config.ts KeyFile that exist before a network deals shares
    expect(Object.keys(key).sort()).toEqual(["blsSecretKey", "operatorSecretKey", "version"]);
    expect(key.version).toBe(1);
    expect(key.blsSecretKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(statSync(join(dir, "v.key")).mode & 0o777).toBe(0o600);
    // the validator node's reader takes these fields as they are, once a network assigns the
    // validator its index and threshold share
    writeFileSync(join(dir, "node.key"), JSON.stringify({ ...key, index: 0, blsShare: "0x00" }));
    const read = readKeyFile(join(dir, "node.key"));
    expect(toHex(read.blsSecretKey)).toBe(key.blsSecretKey);
    expect(toHex(read.operatorSecretKey)).toBe(key.operatorSecretKey);
    const pub = JSON.parse(readFileSync(join(dir, "v.key.pub.json"), "utf8"));
    const pk = native.blsPublicKey(Buffer.from(fromHex(key.blsSecretKey)));
    expect(pub.blsPublicKey).toBe(toHex(pk));
    expect(pub.chainId).toBe("42");
    expect(pub.address).toBe(toHex(addressFromSecretKey(fromHex(key.operatorSecretKey))));
    expect(native.blsVerifyProofOfPossession(pk, 42n, Buffer.from(fromHex(pub.proofOfPossession)))).toBe(
      true,
    );
    expect(native.blsVerifyProofOfPossession(pk, 43n, Buffer.from(fromHex(pub.proofOfPossession)))).toBe(
      false,
    );
    // the secrets are not printed
    expect(r.stdout).not.toContain(key.blsSecretKey.slice(2));
    expect(r.stdout).not.toContain(key.operatorSecretKey.slice(2));
    expect(r.stdout).toContain(pub.blsPublicKey);
    expect(r.stdout).toMatch(
      /next\s+fund the operator, then `cowboy validator register --stake <CBY> --key v\.key`/,
    );

    const again = await cowboy(["validator", "keygen", "--chain-id", "42", "--out", "v.key"], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^cowboy: ERR_FILE_EXISTS: .*v\.key already exists \(pass --force to overwrite it\)/,
    );
    expect(JSON.parse(readFileSync(join(dir, "v.key"), "utf8"))).toEqual(key);

    chmodSync(join(dir, "v.key"), 0o644);
    const shown = await cowboy(
      [
        "validator",
        "keygen",
        "--chain-id",
        "42",
        "--out",
        "v.key",
        "--force",
        "--show-secret",
        "--json",
        "--dev",
        "5",
      ],
      dir,
    );
    expect(shown.code).toBe(0);
    const j = JSON.parse(shown.stdout);
    const key2 = JSON.parse(readFileSync(join(dir, "v.key"), "utf8"));
    expect(j.blsSecretKey).toBe(key2.blsSecretKey);
    expect(j.address).toBe(DEV5);
    expect(key2.blsSecretKey).not.toBe(key.blsSecretKey);
    expect(statSync(join(dir, "v.key")).mode & 0o777).toBe(0o600);
  });

  it("needs a chain id: from --chain-id or the node", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-keygen-"));
    const r = await cowboy(["validator", "keygen"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cowboy: ERR_RPC_NETWORK: cannot reach the node/);
    const bad = await cowboy(["validator", "keygen", "--chain-id", "x"], dir);
    expect(bad.stderr).toBe("cowboy: ERR_ARG: --chain-id takes a u64 decimal, got 'x'\n");
  });

  it("refuses a broken key file and a missing one with what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-keyfile-"));
    writeFileSync(join(dir, "bad.key"), JSON.stringify({ version: 1, blsSecretKey: "0x12" }));
    const r = await cowboy(["validator", "register", "--stake", "10000", "--key", "bad.key"], dir);
    expect(r.stderr).toMatch(
      /^cowboy: ERR_VALIDATOR_KEY_FILE: .*bad\.key: blsSecretKey must be 32 bytes of 0x hex\n$/,
    );
    const none = await cowboy(["validator", "register", "--stake", "10000"], dir);
    expect(none.stderr).toMatch(/no validator key file: pass --key FILE or create validator\.key/);
    const noSigner = await cowboy(["validator", "exit"], dir);
    expect(noSigner.stderr).toMatch(/^cowboy: ERR_NO_SIGNER: no operator account to sign with/);
  });
});

/** The `sh` lines of docs/validator.md's `cowboy validator` section. */
function docLines(): string[] {
  const doc = readFileSync(join(ROOT, "docs", "validator.md"), "utf8");
  const start = doc.indexOf("## Joining and leaving the validator set");
  expect(start).toBeGreaterThan(0);
  const rest = doc.slice(start + 3);
  const end = rest.indexOf("\n## ");
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] as string).split("\n"))
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

describe("cowboy validator on the devnet", () => {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-devnet-"));

  beforeAll(async () => {
    devnet = await startDevnet(["--block-time", "100"]);
  }, 90_000);
  afterAll(async () => {
    await devnet?.stop();
    devnet = null;
  });

  it("runs docs/validator.md's walk-through as written", async () => {
    const lines = docLines();
    expect(lines.length).toBeGreaterThanOrEqual(10);
    const outputs: Record<string, { code: number; stdout: string; stderr: string }> = {};
    for (const line of lines) {
      const m = /^npx cowboy (.*?)(?:\s+# error: ([A-Z_]+))?$/.exec(line);
      expect(m, line).not.toBeNull();
      const command = m?.[1] ?? "";
      const args = command.split(/\s+/);
      const r = await cowboy(args, dir);
      if (m?.[2] !== undefined) {
        expect(r.code, `${line}\n${r.stdout}`).toBe(1);
        expect(r.stderr.startsWith(`cowboy: ${m[2]}: `), `${line}: ${r.stderr}`).toBe(true);
      } else {
        expect(r.stderr, line).toBe("");
        expect(r.code, line).toBe(0);
      }
      // a command that appears twice keeps both outputs, in order
      const key = `npx cowboy ${command}`;
      const prev = outputs[key];
      outputs[key] =
        prev === undefined
          ? r
          : { code: r.code, stdout: prev.stdout + r.stdout, stderr: prev.stderr + r.stderr };
    }
    const registered = outputs["npx cowboy validator register --stake 12000 --key validator.key"];
    expect(registered?.stdout).toMatch(new RegExp(`^registered ${DEV5} in block [0-9]+\\n`));
    expect(registered?.stdout).toMatch(/status\s+bonded/);
    expect(registered?.stdout).toMatch(/stake\s+12,000 CBY {2}12000000000000 base units/);
    expect(registered?.stdout).toMatch(/activation epoch\s+1\n/);
    expect(registered?.stdout).toMatch(/next\s+the validator joins the set at epoch 1/);

    const json = JSON.parse(
      outputs["npx cowboy validator status --key validator.key --json"]?.stdout as string,
    );
    expect(json).toMatchObject({
      address: DEV5,
      status: "bonded",
      stake: "0xae9f7bcc000",
      activationEpoch: "0x1",
    });
    expect(outputs["npx cowboy validator set --epoch 1"]?.stdout).toBe(
      "epoch 1: no validator set (none registered, or not kept for this epoch)\n",
    );
    const low = outputs["npx cowboy validator register --stake 10 --key validator.key"];
    expect(low?.stderr).toBe(
      "cowboy: ERR_VALIDATOR_STAKE_TOO_LOW: 10 CBY is below the minimum stake of 10,000 CBY: pass --stake 10000 or more\n",
    );
    // the status after exit (the second status line's output is appended)
    expect(outputs["npx cowboy validator status --key validator.key"]?.stdout).toMatch(
      /status\s+bonded[\s\S]*status\s+exiting/,
    );
    const unbonding = outputs["npx cowboy validator withdraw --key validator.key"]?.stderr as string;
    expect(unbonding).toMatch(
      /ERR_VALIDATOR_NOT_EXITING: .* has not begun an exit: exit first[\s\S]*ERR_VALIDATOR_STILL_UNBONDING: .* unbonds at height ([0-9]+): wait until block \1, then withdraw again\n$/,
    );
  }, 120_000);

  it("names the operator to fund when it cannot pay the stake", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "cowboy-validator-unfunded-"));
    const k = await cowboy(["validator", "keygen", "--json"], fresh);
    const { address } = JSON.parse(k.stdout);
    const r = await cowboy(["validator", "register", "--stake", "12000"], fresh);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cowboy: ERR_TX_BALANCE: balance 0 cannot cover/);
    expect(r.stderr).toContain(
      `fund the operator ${address} with the stake plus the fee (on a devnet: \`npx cowboy faucet ${address}\`)`,
    );
  });

  it("status of others, the operator check, and an unknown validator", async () => {
    const other = await cowboy(["validator", "status", DEV5], dir);
    expect(other.stdout).toMatch(/status\s+exiting/);
    expect(other.stdout).toMatch(/in current set\s+no/);
    const unknown = await cowboy(["validator", "status", `0x${"ab".repeat(20)}`], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^cowboy: ERR_VALIDATOR_NOT_FOUND: 0xabab.* is not a registered validator/,
    );
    expect((await cowboy(["validator", "status", `0x${"ab".repeat(20)}`, "--json"], dir)).stdout).toBe(
      "null\n",
    );
    const mismatch = await cowboy(["validator", "exit", "--key", "validator.key", "--dev", "1"], dir);
    expect(mismatch.stderr).toMatch(/^cowboy: ERR_VALIDATOR_OPERATOR_MISMATCH: the signing account/);
    const notValidator = await cowboy(["validator", "unjail", "--dev", "2"], join(dir, ".."));
    expect(notValidator.stderr).toMatch(/^cowboy: ERR_VALIDATOR_UNKNOWN_VALIDATOR: 0x.* is not a validator/);
    const set = await cowboy(["validator", "set", "--json"], dir);
    expect(JSON.parse(set.stdout)).toEqual({ epoch: "0x0", validators: [], totalStake: "0x0" });
    const badEpoch = await cowboy(["validator", "set", "--epoch", "x"], dir);
    expect(badEpoch.stderr).toBe("cowboy: ERR_ARG: --epoch takes a decimal epoch number, got 'x'\n");
  }, 60_000);
});

describe("cowboy validator set / status on a node with a set", () => {
  const A = new Uint8Array(20).fill(0x11);
  const B = new Uint8Array(20).fill(0x22);
  const KEY = new Uint8Array(48).fill(0x77);
  const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-set-"));
  let jailedUntil = 90;

  beforeAll(async () => {
    const backend = {
      head: () => ({ height: 50n, hash: new Uint8Array(32) }),
      validatorSet: (epoch: number | null) => ({
        epoch: epoch ?? 4,
        members:
          (epoch ?? 4) === 4
            ? [
                { address: A, blsKey: KEY, stake: 10_000_000_000_000n },
                { address: B, blsKey: KEY, stake: 30_000_500_000_000n },
              ]
            : [],
      }),
      validator: (address: Uint8Array) =>
        address[0] === 0x22
          ? {
              address: B,
              blsKey: KEY,
              stake: 29_700_500_000_000n,
              status: "bonded" as const,
              registeredHeight: 0,
              activationEpoch: 0,
              exitHeight: 0,
              jailedUntil,
              jailCount: 1,
              slashed: 300_000_000_000n,
              missed: 3,
            }
          : null,
    };
    // the head height for the jail check (block 50 < jailedUntil 90)
    const head = { methods: () => ({ cowboy_blockNumber: method("the head height", [], () => "0x32") }) };
    const dispatcher = new RpcDispatcher([new ValidatorsModule(backend as never), head]);
    const server = new RpcServer(
      { dispatcher },
      { port: 0, rateLimit: { perSecond: 100_000, burst: 100_000 } },
    );
    const { http } = await server.start();
    devnet = { http, stop: () => server.close() };
  });
  afterAll(async () => {
    await devnet?.stop();
    devnet = null;
  });

  it("lists the set with stakes and shares; a jailed, slashed validator shows as such", async () => {
    const set = await cowboy(["validator", "set"], dir);
    expect(set.stderr).toBe("");
    expect(set.stdout).toBe(
      [
        "epoch 4: 2 validators, 40,000.5 CBY staked",
        "#  address                                     stake         share",
        "0  0x1111111111111111111111111111111111111111  10,000 CBY    24.99%",
        "1  0x2222222222222222222222222222222222222222  30,000.5 CBY  75.00%",
        "",
      ].join("\n"),
    );
    const st = await cowboy(["validator", "status", `0x${"22".repeat(20)}`], dir);
    expect(st.stderr).toBe("");
    expect(st.stdout).toMatch(/status\s+jailed\n/);
    expect(st.stdout).toMatch(/in current set\s+yes\n/);
    expect(st.stdout).toMatch(/jailed until\s+block 90\n/);
    expect(st.stdout).toMatch(/slashed\s+300 CBY\n/);
    expect(st.stdout).toMatch(/jail count\s+1\n/);
    // past the jail (head 50 ≥ jailedUntil 40) the validator still has to unjail
    jailedUntil = 40;
    const over = await cowboy(["validator", "status", `0x${"22".repeat(20)}`], dir);
    expect(over.stdout).toMatch(/status\s+jailed \(jail over: `cowboy validator unjail`\)\n/);
  });
});

describe("cowboy validator through a whole lifecycle (5-block epochs, 20-block unbonding)", () => {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-lifecycle-"));
  const EPOCH = 5n;

  beforeAll(async () => {
    devnet = await startShortEpochDevnet({ epochBlocks: Number(EPOCH), unbondingBlocks: 20 });
  }, 60_000);
  afterAll(async () => {
    await devnet?.stop();
    devnet = null;
  });

  async function until(height: bigint): Promise<void> {
    const reader = createPublicClient({ transport: devnet?.http as string });
    const deadline = Date.now() + 30_000;
    while ((await reader.getBlockNumber()) < height) {
      if (Date.now() > deadline) throw new Error(`no block ${height}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it("registers, joins the set, exits and withdraws", async () => {
    expect((await cowboy(["validator", "keygen", "--dev", "7"], dir)).code).toBe(0);
    const reg = await cowboy(["validator", "register", "--stake", "10000.5", "--json"], dir);
    expect(reg.stderr).toBe("");
    const registered = JSON.parse(reg.stdout);
    const activation = BigInt(registered.validator.activationEpoch);
    expect(activation).toBe(
      BigInt(registered.blockNumber) / EPOCH +
        (BigInt(registered.blockNumber) % EPOCH < EPOCH / 2n ? 1n : 2n),
    ); // frozen at F(e) = e·E + ⌊E/2⌋
    await until(activation * EPOCH);

    const status = await cowboy(["validator", "status"], dir);
    expect(status.stdout).toMatch(/status\s+bonded\n/);
    expect(status.stdout).toMatch(/in current set\s+yes\n/);
    const set = await cowboy(["validator", "set", "--epoch", activation.toString()], dir);
    expect(set.stdout).toMatch(new RegExp(`^epoch ${activation}: 1 validator, 10,000\\.5 CBY staked\\n`));
    expect(set.stdout).toMatch(/0 {2}0x[0-9a-f]{40} {2}10,000\.5 CBY {2}100\.00%\n$/);

    const exit = await cowboy(["validator", "exit", "--json"], dir);
    expect(exit.stderr).toBe("");
    const exitHeight = BigInt(JSON.parse(exit.stdout).blockNumber);
    await until(exitHeight + 20n);
    const w = await cowboy(["validator", "withdraw"], dir);
    expect(w.stderr).toBe("");
    expect(w.stdout).toMatch(
      /^withdrew 10,000\.5 CBY to 0x[0-9a-f]{40} in block [0-9]+; balance [0-9,.]+ CBY\n$/,
    );
    const gone = await cowboy(["validator", "status"], dir);
    expect(gone.stderr).toMatch(/ERR_VALIDATOR_NOT_FOUND/);
  }, 90_000);
});
