/**
 * `cowboy keys …` against a temporary key directory. The command module is
 * registered on a fresh commander program (cheap scrypt cost, captured output),
 * then the real `cowboy` binary is run once end to end with COWBOY_KEYS_DIR.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Command } from "commander";
import { beforeEach, describe, expect, it } from "vitest";
import { fromHex, toHex } from "../../sdk/src/bytes.ts";
import { addressFromSecretKey } from "../../sdk/src/crypto.ts";
import { decryptKeystore, encryptKeystore } from "../../sdk/src/keys/keystore.ts";
import { type KeysContext, registerKeys } from "../src/commands/keys.ts";
import { CliError } from "../src/errors.ts";

const ABOUT = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const ABOUT_ADDRESS = "0x9858effd232b4033e47d90003d41ec34ecaeda94";
const KEY = `0x${"11".repeat(32)}`;
const KEY_ADDRESS = "0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a";
const CHEAP = { n: 1024, r: 8, p: 1 };

interface Run {
  code: string | null;
  message: string;
  stdout: string;
  stderr: string;
}

let home: string;
let dir: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "cowboy-keys-"));
  dir = join(home, "keys");
});

/** Runs `cowboy keys <args>` in process; `env` defaults to COWBOY_KEYS_DIR=dir, COWBOY_PASSWORD=pw. */
async function keys(
  args: string[],
  env: Record<string, string | undefined> = { COWBOY_KEYS_DIR: dir, COWBOY_PASSWORD: "pw" },
  stdin = "",
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const ctx: Partial<KeysContext> = {
    env,
    home: () => home,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdin: () => stdin,
    scrypt: CHEAP,
  };
  const program = new Command("cowboy").exitOverride().configureOutput({
    writeOut: (t) => {
      stdout += t;
    },
    writeErr: (t) => {
      stderr += t;
    },
  });
  registerKeys(program, ctx);
  try {
    await program.parseAsync(["keys", ...args], { from: "user" });
    return { code: null, message: "", stdout, stderr };
  } catch (err) {
    if (err instanceof CliError) return { code: err.code, message: err.message, stdout, stderr };
    throw err;
  }
}

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

describe("keys new", () => {
  it("creates a random key, saved encrypted with mode 0600", async () => {
    const r = await keys(["new", "--name", "alice"]);
    expect(r.code).toBeNull();
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("name: alice");
    expect(lines[1]).toMatch(/^address: 0x[0-9a-f]{40}$/);
    expect(lines[2]).toBe(`file: ${join(dir, "alice.json")}`);
    const file = join(dir, "alice.json");
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    expect(doc.version).toBe(3);
    expect(doc.crypto.kdfparams.n).toBe(1024);
    const secret = decryptKeystore(doc, "pw");
    expect(toHex(addressFromSecretKey(secret))).toBe(lines[1]?.slice("address: ".length));
  });

  it("creates a mnemonic key and prints the mnemonic once", async () => {
    const r = await keys(["new", "--name", "m", "--mnemonic", "--words", "12", "--json"]);
    expect(r.code).toBeNull();
    const out = JSON.parse(r.stdout);
    expect(out.path).toBe("m/44'/60'/0'/0/0");
    expect(out.mnemonic.split(" ")).toHaveLength(12);
    expect(r.stderr).toMatch(/shown only once/);
    // The mnemonic is not stored, and re-importing it yields the same address.
    expect(readFileSync(join(dir, "m.json"), "utf8")).not.toContain(`${out.mnemonic.split(" ")[0]} `);
    const again = await keys(["import", "--mnemonic", out.mnemonic, "--name", "m2", "--json"]);
    expect(JSON.parse(again.stdout).address).toBe(out.address);
    const r24 = await keys(["new", "--name", "m24", "--mnemonic", "--json"]);
    expect(JSON.parse(r24.stdout).mnemonic.split(" ")).toHaveLength(24);
  });

  it("defaults the name, refuses to overwrite, validates names and --words", async () => {
    expect((await keys(["new"])).code).toBeNull();
    const before = readFileSync(join(dir, "default.json"), "utf8");
    const again = await keys(["new"]);
    expect(again.code).toBe("ERR_KEY_EXISTS");
    expect(again.message).toBe(`a key named "default" already exists in ${dir} (choose another --name)`);
    expect(readFileSync(join(dir, "default.json"), "utf8")).toBe(before);
    for (const bad of ["../evil", ".hidden", "a/b", "", "x".repeat(65)]) {
      expect((await keys(["new", "--name", bad])).code).toBe("ERR_KEY_NAME");
    }
    expect((await keys(["new", "--name", "w", "--mnemonic", "--words", "18"])).code).toBe("ERR_USAGE");
  });

  it("needs a non-empty password from --password-file or COWBOY_PASSWORD", async () => {
    const none = await keys(["new"], { COWBOY_KEYS_DIR: dir });
    expect(none.code).toBe("ERR_PASSWORD_REQUIRED");
    expect((await keys(["new"], { COWBOY_KEYS_DIR: dir, COWBOY_PASSWORD: "" })).code).toBe(
      "ERR_PASSWORD_EMPTY",
    );
    const pwFile = join(home, "pw.txt");
    writeFileSync(pwFile, "from-file\nsecond line ignored\n");
    const r = await keys(["new", "--name", "f", "--password-file", pwFile, "--json"], {
      COWBOY_KEYS_DIR: dir,
    });
    expect(r.code).toBeNull();
    const doc = readFileSync(join(dir, "f.json"), "utf8");
    expect(toHex(addressFromSecretKey(decryptKeystore(doc, "from-file")))).toBe(JSON.parse(r.stdout).address);
    expect((await keys(["new", "--name", "g", "--password-file", join(home, "nope")])).code).toBe("ERR_FILE");
    expect(readdirSync(dir).sort()).toEqual(["f.json"]);
  });

  it("resolves the directory: --keys-dir, then COWBOY_KEYS_DIR, then ~/.cowboy/keys", async () => {
    const other = join(home, "other");
    await keys(["new", "--name", "a", "--keys-dir", other]);
    expect(readdirSync(other)).toEqual(["a.json"]);
    await keys(["new", "--name", "b"], { COWBOY_PASSWORD: "pw" });
    expect(readdirSync(join(home, ".cowboy", "keys"))).toEqual(["b.json"]);
  });
});

describe("keys import", () => {
  it("imports a secret key (argument or stdin)", async () => {
    const r = await keys(["import", KEY, "--name", "k"]);
    expect(r.stdout).toBe(`name: k\naddress: ${KEY_ADDRESS}\nfile: ${join(dir, "k.json")}\n`);
    expect(toHex(decryptKeystore(readFileSync(join(dir, "k.json"), "utf8"), "pw"))).toBe(KEY);
    const s = await keys(["import", "-", "--name", "k2", "--json"], undefined, `${KEY.slice(2)}\n`);
    expect(JSON.parse(s.stdout).address).toBe(KEY_ADDRESS);
  });

  it("imports from a mnemonic with the default path, an index or a path", async () => {
    const a = await keys(["import", "--mnemonic", ABOUT, "--name", "a0", "--json"]);
    expect(JSON.parse(a.stdout)).toMatchObject({ address: ABOUT_ADDRESS, path: "m/44'/60'/0'/0/0" });
    const a1 = await keys(
      ["import", "--mnemonic", "-", "--index", "1", "--name", "a1", "--json"],
      undefined,
      ABOUT,
    );
    expect(JSON.parse(a1.stdout)).toMatchObject({
      address: "0x6fac4d18c912343bf86fa7049364dd4e424ab9c0",
      path: "m/44'/60'/0'/0/1",
    });
    const p = await keys([
      "import",
      "--mnemonic",
      ABOUT,
      "--path",
      "m/44'/60'/0'/0/1",
      "--name",
      "p",
      "--json",
    ]);
    expect(JSON.parse(p.stdout).address).toBe("0x6fac4d18c912343bf86fa7049364dd4e424ab9c0");
  });

  it("imports an existing v3 keystore file (re-encrypted)", async () => {
    const foreign = join(home, "foreign.json");
    writeFileSync(foreign, JSON.stringify(encryptKeystore(fromHex(KEY), "pw", { scrypt: CHEAP })));
    const r = await keys(["import", "--keystore", foreign, "--name", "ext", "--json"]);
    expect(JSON.parse(r.stdout).address).toBe(KEY_ADDRESS);
    const wrong = await keys(["import", "--keystore", foreign, "--name", "ext2"], {
      COWBOY_KEYS_DIR: dir,
      COWBOY_PASSWORD: "bad",
    });
    expect(wrong.code).toBe("ERR_KEYSTORE_PASSWORD");
    writeFileSync(foreign, "{}");
    expect((await keys(["import", "--keystore", foreign, "--name", "ext3"])).code).toBe(
      "ERR_KEYSTORE_FORMAT",
    );
  });

  it("reports bad input with typed codes and writes nothing", async () => {
    const cases: Array<[string[], string]> = [
      [["import", "zz"], "ERR_INVALID_HEX"],
      [["import", `0x${"00".repeat(32)}`], "ERR_SIG_INVALID_SECRET_KEY"],
      [["import", "0x1111"], "ERR_SIG_INVALID_SECRET_KEY"],
      [["import", "--mnemonic", "abandon abandon"], "ERR_MNEMONIC_LENGTH"],
      [["import", "--mnemonic", ABOUT.replace("about", "abuot")], "ERR_MNEMONIC_UNKNOWN_WORD"],
      [["import", "--mnemonic", ABOUT.replace("about", "zoo")], "ERR_MNEMONIC_CHECKSUM"],
      [["import", "--mnemonic", ABOUT, "--path", "m/x"], "ERR_INVALID_PATH"],
      [["import", "--mnemonic", ABOUT, "--index", "-1"], "ERR_USAGE"],
      [["import", "--mnemonic", ABOUT, "--index", "4294967296"], "ERR_INVALID_PATH"],
      [["import", "--mnemonic", ABOUT, "--index", "1", "--path", "m/0"], "ERR_USAGE"],
      [["import", KEY, "--index", "1"], "ERR_USAGE"],
      [["import"], "ERR_USAGE"],
      [["import", KEY, "--mnemonic", ABOUT], "ERR_USAGE"],
      [["import", "--keystore", join(home, "missing.json")], "ERR_FILE"],
    ];
    for (const [args, code] of cases) expect((await keys(args)).code, args.join(" ")).toBe(code);
    const unknown = await keys(["import", "--mnemonic", ABOUT.replace("about", "abuot")]);
    expect(unknown.message).toBe('mnemonic word 12 "abuot" is not in the BIP-39 English word list');
    expect(readdirSync(home)).not.toContain("keys");
  });
});

describe("keys list / address / export", () => {
  it("lists names and addresses (text and JSON), tolerating a broken file", async () => {
    expect(await keys(["list"])).toMatchObject({ code: null, stdout: "" });
    expect((await keys(["list", "--json"])).stdout).toBe("[]\n");
    await keys(["import", KEY, "--name", "b"]);
    await keys(["import", "--mnemonic", ABOUT, "--name", "a"]);
    writeFileSync(join(dir, "notes.txt"), "not a key");
    expect((await keys(["list"])).stdout).toBe(`a\t${ABOUT_ADDRESS}\nb\t${KEY_ADDRESS}\n`);
    writeFileSync(join(dir, "c.json"), "garbage");
    const r = await keys(["list", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: "a", address: ABOUT_ADDRESS },
      { name: "b", address: KEY_ADDRESS },
      { name: "c", address: null },
    ]);
    expect(r.stderr).toBe("cowboy: warning: c: keystore: not valid JSON\n");
  });

  it("prints a key's address without a password", async () => {
    await keys(["import", KEY, "--name", "k"]);
    expect((await keys(["address", "k"], { COWBOY_KEYS_DIR: dir })).stdout).toBe(`${KEY_ADDRESS}\n`);
    const missing = await keys(["address", "nobody"]);
    expect(missing.code).toBe("ERR_KEY_NOT_FOUND");
    expect(missing.message).toBe(`no key named "nobody" in ${dir}`);
    expect((await keys(["address", "../k"])).code).toBe("ERR_KEY_NAME");
  });

  it("exports the keystore JSON, or the secret only with --show-secret and the password", async () => {
    await keys(["import", KEY, "--name", "k"]);
    const json = await keys(["export", "k"], { COWBOY_KEYS_DIR: dir });
    expect(json.code).toBeNull();
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(readFileSync(join(dir, "k.json"), "utf8")));
    expect(json.stdout).not.toContain("1111111111");
    expect((await keys(["export", "k", "--show-secret"])).stdout).toBe(`${KEY}\n`);
    const wrong = await keys(["export", "k", "--show-secret"], {
      COWBOY_KEYS_DIR: dir,
      COWBOY_PASSWORD: "nope",
    });
    expect(wrong.code).toBe("ERR_KEYSTORE_PASSWORD");
    expect(wrong.stdout).toBe("");
    expect((await keys(["export", "k", "--show-secret"], { COWBOY_KEYS_DIR: dir })).code).toBe(
      "ERR_PASSWORD_REQUIRED",
    );
    writeFileSync(join(dir, "bad.json"), '{"version":3}');
    expect((await keys(["export", "bad"])).code).toBe("ERR_KEYSTORE_FORMAT");
  });
});

/** Splits a shell command line into words (single and double quotes, no expansions). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3] ?? "");
  return words;
}

describe("docs/keys.md shell examples", () => {
  const doc = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "docs", "keys.md"),
    "utf8",
  );
  const lines = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] as string).split("\n"))
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

  it("every line is an export or a cowboy keys command", () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(line).toMatch(/^(export [A-Z_]+=|npx cowboy keys )/);
  });

  it("run in order against a fresh key directory, each succeeding", async () => {
    const env: Record<string, string | undefined> = { COWBOY_KEYS_DIR: dir };
    const outputs: Record<string, string> = {};
    for (const line of lines) {
      const exported = /^export ([A-Z_]+)=(.*)$/.exec(line);
      if (exported !== null) {
        env[exported[1] as string] = shellWords(exported[2] as string).join(" ");
        continue;
      }
      const r = await keys(shellWords(line).slice(3), env);
      expect(r.code, `${line}: ${r.message}`).toBeNull();
      outputs[line] = r.stdout;
    }
    expect(env.COWBOY_PASSWORD).toBe("correct horse battery staple");
    expect(outputs["npx cowboy keys address carol"]).toBe(`${KEY_ADDRESS}\n`);
    expect(outputs["npx cowboy keys export carol --show-secret"]).toBe(`${KEY}\n`);
    const list = JSON.parse(outputs["npx cowboy keys list --json"] as string);
    expect(list.map((k: { name: string }) => k.name)).toEqual(["alice", "bob", "carol", "dave"]);
    expect(list[3].address).toBe("0x6fac4d18c912343bf86fa7049364dd4e424ab9c0");
  });
});

describe("the cowboy binary", () => {
  it("runs keys import/address/export in a child process", async () => {
    // Until `registerKeys` is wired into commands/index.ts, drive the module through a tiny script.
    const script = join(home, "run.ts");
    const moduleUrl = new URL("../src/commands/keys.ts", import.meta.url).href;
    const commanderUrl = pathToFileURL(createRequire(import.meta.url).resolve("commander")).href;
    writeFileSync(
      script,
      [
        `import { Command } from ${JSON.stringify(commanderUrl)};`,
        `import { registerKeys } from ${JSON.stringify(moduleUrl)};`,
        'const program = new Command("cowboy");',
        "registerKeys(program, { scrypt: { n: 1024 } });",
        "await program.parseAsync(process.argv.slice(2), { from: 'user' });",
      ].join("\n"),
    );
    const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
    const env = { ...process.env, COWBOY_KEYS_DIR: dir, COWBOY_PASSWORD: "pw" };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [script, "keys", ...args], { encoding: "utf8", env, cwd: cliDir });
    const imp = run(["import", KEY, "--name", "k"]);
    expect(imp.stderr).toBe("");
    expect(imp.status).toBe(0);
    expect(run(["address", "k"]).stdout).toBe(`${KEY_ADDRESS}\n`);
    expect(run(["export", "k", "--show-secret"]).stdout).toBe(`${KEY}\n`);
    expect(mode(join(dir, "k.json"))).toBe(0o600);
  });
});
