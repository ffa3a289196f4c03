/**
 * `cowboy keys …`: create, import, list and export account keys kept as
 * encrypted Web3 Secret Storage v3 files (docs/keys.md).
 *
 * - `cowboy keys new [--name N] [--mnemonic [--words 12|24]]`: a fresh key
 *   (random, or derived at `m/44'/60'/0'/0/0` from a new BIP-39 mnemonic, which
 *   is printed once and never stored).
 * - `cowboy keys import <secret-hex|-> | --mnemonic <phrase|-> [--index i | --path p] | --keystore <file>`.
 * - `cowboy keys list [--json]`: names and addresses (no password needed).
 * - `cowboy keys export <name> [--show-secret]`: the keystore JSON, or the
 *   decrypted secret key with `--show-secret`.
 * - `cowboy keys address <name>`: the key's address.
 *
 * Keys live in `<keys-dir>/<name>.json` (mode 0600, directory 0700): `--keys-dir`,
 * else `$COWBOY_KEYS_DIR`, else `~/.cowboy/keys`. The password comes from the
 * first line of `--password-file <file>` or from `$COWBOY_PASSWORD`, never from
 * a command-line argument (argv is visible to other users of the machine).
 * Existing names are never overwritten. Failures exit 1 with
 * `cowboy: ERR_<CODE>: <message>` (e.g. `ERR_KEYSTORE_PASSWORD`, `ERR_KEY_EXISTS`).
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import {
  checkMnemonic,
  checkSecretKey,
  decryptKeystore,
  defaultDerivationPath,
  deriveAccount,
  encryptKeystore,
  generateMnemonic,
  generateSecretKey,
  keystoreAddress,
  parseHexLoose,
  type ScryptParams,
  toHex,
} from "@cowboy/sdk";
import type { Command } from "commander";
import { CliError } from "../errors.ts";

/** What the `keys` commands touch outside their arguments; tests replace parts of it. */
export interface KeysContext {
  /** Environment (`COWBOY_KEYS_DIR`, `COWBOY_PASSWORD`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory (for the default `~/.cowboy/keys`). */
  home: () => string;
  /** Standard output and error. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input (for `-` arguments). */
  stdin: () => string;
  /** scrypt cost for new keystores; default n = 2^18, r = 8, p = 1 (tests pass a cheap n). */
  scrypt?: Partial<ScryptParams>;
}

const processContext: KeysContext = {
  env: process.env,
  home: homedir,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, "utf8"),
};

/** Key names: 1..64 characters of `[A-Za-z0-9._-]`, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u;

/** Turns the SDK's typed errors (`KeyError`, `SigError`, …: anything with an `errCode`) into CLI errors. */
function cli<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CliError) throw err;
    const errCode = (err as { errCode?: unknown }).errCode;
    if (err instanceof Error && typeof errCode === "string") throw new CliError(errCode, err.message);
    throw err;
  }
}

function checkName(name: string): string {
  if (!NAME.test(name)) {
    throw new CliError(
      "ERR_KEY_NAME",
      `invalid key name "${name}": use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

interface DirOpts {
  keysDir?: string;
}

interface PasswordOpts {
  passwordFile?: string;
}

class KeyStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  file(name: string): string {
    return join(this.dir, `${checkName(name)}.json`);
  }

  exists(name: string): boolean {
    return existsSync(this.file(name));
  }

  refuseExisting(name: string): void {
    if (this.exists(name)) {
      throw new CliError(
        "ERR_KEY_EXISTS",
        `a key named "${name}" already exists in ${this.dir} (choose another --name)`,
      );
    }
  }

  /** Writes a new key file (0600), never replacing an existing one. Returns its path. */
  save(name: string, doc: unknown): string {
    const file = this.file(name);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new CliError("ERR_FILE", `cannot create ${this.dir}: ${(err as Error).message}`);
    }
    try {
      writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") this.refuseExisting(name);
      throw new CliError("ERR_FILE", `cannot write ${file}: ${(err as Error).message}`);
    }
    chmodSync(file, 0o600); // the umask may have narrowed the mode; make it exactly 0600
    return file;
  }

  /** The raw text of key `name`. */
  read(name: string): string {
    const file = this.file(name);
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        throw new CliError("ERR_KEY_NOT_FOUND", `no key named "${name}" in ${this.dir}`);
      }
      throw new CliError("ERR_FILE", `cannot read ${file}: ${(err as Error).message}`);
    }
  }

  /** Key names (file names without `.json`), sorted. A missing directory has none. */
  names(): string[] {
    let entries: string[];
    try {
      entries = readdirSync(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new CliError("ERR_FILE", `cannot list ${this.dir}: ${(err as Error).message}`);
    }
    return entries
      .filter((f) => f.endsWith(".json") && NAME.test(f.slice(0, -5)))
      .map((f) => f.slice(0, -5))
      .sort();
  }
}

/**
 * Adds the `keys` command family to `program`. `context` overrides the process
 * environment, home directory, standard streams and scrypt cost (tests use it);
 * the CLI calls `registerKeys(program)`. Commands throw {@link CliError}.
 */
export function registerKeys(program: Command, context: Partial<KeysContext> = {}): void {
  const ctx: KeysContext = { ...processContext, ...context };

  const store = (opts: DirOpts): KeyStore =>
    new KeyStore(opts.keysDir ?? ctx.env.COWBOY_KEYS_DIR ?? join(ctx.home(), ".cowboy", "keys"));

  const readText = (file: string, what: string): string => {
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new CliError("ERR_FILE", `cannot read ${what} ${file}: ${(err as Error).message}`);
    }
  };

  /** The password: first line of --password-file, else $COWBOY_PASSWORD. `forNewFile` refuses an empty one. */
  const password = (opts: PasswordOpts, forNewFile: boolean): string => {
    let pw: string | undefined;
    if (opts.passwordFile !== undefined) {
      pw = readText(opts.passwordFile, "password file").split(/\r?\n/u)[0] ?? "";
    } else {
      pw = ctx.env.COWBOY_PASSWORD;
    }
    if (pw === undefined) {
      throw new CliError(
        "ERR_PASSWORD_REQUIRED",
        "no password: pass --password-file <file> or set COWBOY_PASSWORD",
      );
    }
    if (forNewFile && pw === "")
      throw new CliError("ERR_PASSWORD_EMPTY", "refusing to encrypt a key with an empty password");
    return pw;
  };

  const stdinOr = (arg: string): string => (arg === "-" ? ctx.stdin() : arg);

  const print = (json: boolean, fields: Record<string, string>): void => {
    if (json) ctx.stdout(`${JSON.stringify(fields, null, 2)}\n`);
    else for (const [k, v] of Object.entries(fields)) ctx.stdout(`${k}: ${v}\n`);
  };

  const keys = program.command("keys").description("create, import, list and export encrypted account keys");

  const dirOption = (cmd: Command): Command =>
    cmd.option("--keys-dir <dir>", "key directory (default: $COWBOY_KEYS_DIR, else ~/.cowboy/keys)");
  const passwordOption = (cmd: Command): Command =>
    cmd.option(
      "--password-file <file>",
      "read the password from the first line of <file> (else $COWBOY_PASSWORD)",
    );

  passwordOption(
    dirOption(
      keys
        .command("new")
        .description("create a new key and save it encrypted; prints its address")
        .option("--name <name>", "name of the key", "default")
        .option("--mnemonic", "derive the key from a new BIP-39 mnemonic (printed once, never stored)")
        .option("--words <n>", "mnemonic length: 12 or 24", "24")
        .option("--json", "print JSON"),
    ),
  ).action(
    (opts: DirOpts & PasswordOpts & { name: string; mnemonic?: boolean; words: string; json?: boolean }) => {
      const ks = store(opts);
      ks.refuseExisting(checkName(opts.name));
      if (opts.mnemonic && opts.words !== "12" && opts.words !== "24") {
        throw new CliError("ERR_USAGE", `--words must be 12 or 24, found ${opts.words}`);
      }
      const pw = password(opts, true);
      const out: Record<string, string> = { name: opts.name };
      let secret: Uint8Array;
      let phrase: string | null = null;
      if (opts.mnemonic) {
        phrase = generateMnemonic(opts.words === "12" ? 12 : 24);
        const account = cli(() => deriveAccount(phrase as string));
        secret = account.secretKey;
        out.path = account.path;
      } else {
        secret = generateSecretKey();
      }
      const doc = cli(() => encryptKeystore(secret, pw, { scrypt: ctx.scrypt }));
      secret.fill(0);
      const file = ks.save(opts.name, doc);
      Object.assign(out, { address: `0x${doc.address}`, file });
      if (phrase !== null) {
        out.mnemonic = phrase;
        ctx.stderr(
          "cowboy: write the mnemonic down and keep it offline: it is shown only once, and anyone who has it controls this key\n",
        );
      }
      print(opts.json === true, out);
    },
  );

  passwordOption(
    dirOption(
      keys
        .command("import")
        .description("import a secret key, a BIP-39 mnemonic or a v3 keystore file, and save it encrypted")
        .argument("[secret]", "32-byte secret key in hex (optional 0x), or - to read it from stdin")
        .option("--mnemonic <phrase>", "import from a BIP-39 mnemonic (or - to read it from stdin)")
        .option("--index <i>", "address index in m/44'/60'/0'/0/<i> (with --mnemonic; default 0)")
        .option("--path <path>", "full BIP-32 derivation path (with --mnemonic)")
        .option("--keystore <file>", "import a Web3 Secret Storage v3 file (decrypted with the password)")
        .option("--name <name>", "name of the key", "default")
        .option("--json", "print JSON"),
    ),
  ).action(
    (
      secretArg: string | undefined,
      opts: DirOpts &
        PasswordOpts & {
          mnemonic?: string;
          index?: string;
          path?: string;
          keystore?: string;
          name: string;
          json?: boolean;
        },
    ) => {
      const sources = [secretArg, opts.mnemonic, opts.keystore].filter((s) => s !== undefined).length;
      if (sources !== 1) {
        throw new CliError(
          "ERR_USAGE",
          "give exactly one of <secret>, --mnemonic <phrase> or --keystore <file>",
        );
      }
      const ks = store(opts);
      ks.refuseExisting(checkName(opts.name));
      const pw = password(opts, true);
      const out: Record<string, string> = { name: opts.name };
      let secret: Uint8Array;
      if (opts.mnemonic === undefined && (opts.index !== undefined || opts.path !== undefined)) {
        throw new CliError("ERR_USAGE", "--index and --path apply only with --mnemonic");
      }
      if (opts.index !== undefined && opts.path !== undefined) {
        throw new CliError("ERR_USAGE", "give --index or --path, not both");
      }
      if (opts.mnemonic !== undefined) {
        const index = opts.index ?? "0";
        if (!/^(0|[1-9][0-9]*)$/u.test(index)) {
          throw new CliError("ERR_USAGE", `--index must be a non-negative integer, found ${index}`);
        }
        const path = opts.path ?? cli(() => defaultDerivationPath(Number(index)));
        const phrase = cli(() => checkMnemonic(stdinOr(opts.mnemonic as string)));
        const account = cli(() => deriveAccount(phrase, { path }));
        secret = account.secretKey;
        out.path = account.path;
      } else if (opts.keystore !== undefined) {
        const text = readText(opts.keystore, "keystore");
        secret = cli(() => decryptKeystore(text, pw));
      } else {
        let bytes: Uint8Array;
        try {
          bytes = parseHexLoose(stdinOr(secretArg as string));
        } catch {
          throw new CliError("ERR_INVALID_HEX", "secret: expected 64 hex digits (an optional 0x prefix)");
        }
        secret = cli(() => checkSecretKey(bytes, "secret"));
      }
      const doc = cli(() => encryptKeystore(secret, pw, { scrypt: ctx.scrypt }));
      secret.fill(0);
      const file = ks.save(opts.name, doc);
      Object.assign(out, { address: `0x${doc.address}`, file });
      print(opts.json === true, out);
    },
  );

  dirOption(
    keys.command("list").description("list the saved keys: name and address").option("--json", "print JSON"),
  ).action((opts: DirOpts & { json?: boolean }) => {
    const ks = store(opts);
    const rows = ks.names().map((name) => {
      try {
        const address = cli(() => keystoreAddress(ks.read(name)));
        return { name, address: address === null ? null : toHex(address) };
      } catch (err) {
        ctx.stderr(`cowboy: warning: ${name}: ${(err as Error).message}\n`);
        return { name, address: null };
      }
    });
    if (opts.json) ctx.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    else for (const r of rows) ctx.stdout(`${r.name}\t${r.address ?? "?"}\n`);
  });

  passwordOption(
    dirOption(
      keys
        .command("export")
        .description("print a key's keystore JSON, or with --show-secret its decrypted secret key")
        .argument("<name>", "name of the key")
        .option("--show-secret", "decrypt (needs the password) and print the raw secret key in hex"),
    ),
  ).action((name: string, opts: DirOpts & PasswordOpts & { showSecret?: boolean }) => {
    const text = store(opts).read(name);
    if (opts.showSecret) {
      const secret = cli(() => decryptKeystore(text, password(opts, false)));
      ctx.stdout(`${toHex(secret)}\n`);
      secret.fill(0);
      return;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new CliError("ERR_KEYSTORE_FORMAT", `keystore: ${name} is not valid JSON`);
    }
    cli(() => keystoreAddress(doc)); // validates the structure before printing
    ctx.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  });

  dirOption(
    keys.command("address").description("print a key's address").argument("<name>", "name of the key"),
  ).action((name: string, opts: DirOpts) => {
    const address = cli(() => keystoreAddress(store(opts).read(name)));
    if (address === null) {
      throw new CliError("ERR_KEYSTORE_FORMAT", `keystore: ${name} has no address field`);
    }
    ctx.stdout(`${toHex(address)}\n`);
  });
}
