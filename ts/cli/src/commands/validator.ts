/**
 * `cowboy validator …`: the operator's side of the validator lifecycle (docs/validator.md
 * "Running a validator", docs/cli.md):
 *
 * - `keygen [--out FILE]`: a fresh BLS key and its proof of possession, written as the
 *   validator node's key file (`validator.key`: `version`, `blsSecretKey`, `operatorSecretKey`;
 *   0x hex, mode 0600) plus `FILE.pub.json` with the public part (address, BLS public key,
 *   proof of possession, chain id). The secret is never printed unless `--show-secret`.
 * - `register --stake CBY [--key FILE]`: registers the key file's BLS key with `CBY` of the
 *   operator's balance; in the set from the next epoch.
 * - `exit`, `withdraw`, `unjail`: the rest of the lifecycle, signed by the operator.
 * - `status [ADDRESS]`: a validator's record; `set [--epoch N]`: an epoch's set with stakes.
 *
 * The operator account that signs is `--dev N`, `--account NAME` (a key of `cowboy keys`),
 * `$COWBOY_PRIVATE_KEY`, or else the key file's `operatorSecretKey`. A failed validator
 * transaction exits 1 with `cowboy: ERR_VALIDATOR_<CODE>: <what happened>: <the fix>`.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import {
  addressFromSecretKey,
  bytesEqual,
  createWalletClient,
  fromHex,
  generateSecretKey,
  parseValidatorError,
  type RpcReceipt,
  RpcRequestError,
  type RpcValidator,
  type SentTransaction,
  toHex,
  type WalletClient,
} from "@cowboy/sdk";
import type { Command } from "commander";
import {
  publicClient,
  type RpcOpts,
  rpcOptions,
  rpcUrl,
  run,
  type SignerOpts,
  secretKeyOf,
} from "../chain/context.ts";
import { CliError } from "../errors.ts";
import { io } from "../io.ts";
import { loadNative } from "../native.ts";
import { fields, formatCby, paint, table, UNITS_PER_CBY, withProgress } from "../ui.ts";

const out = (text: string) => io().stdout(text);
const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);

/** The key file `keygen` writes by default (the name the localnet gives validator key files). */
export const DEFAULT_KEY_FILE = "validator.key";
/** Version of the validator key file (ts/node/src/validator/config.ts `KeyFile`). */
const KEY_FILE_VERSION = 1;

/** Options of the validator commands that sign. */
interface ValidatorSignerOpts extends RpcOpts {
  dev?: string | boolean;
  account?: string;
  keysDir?: string;
  passwordFile?: string;
  key?: string;
  timeout?: string;
}

/** The validator key file as `keygen` writes it and the node reads it. */
export interface ValidatorKey {
  blsSecretKey: Uint8Array;
  /** the operator account's secp256k1 key, when the file holds one */
  operatorSecretKey: Uint8Array | null;
}

function resolvePath(file: string): string {
  return isAbsolute(file) ? file : join(io().cwd(), file);
}

function hexField(o: Record<string, unknown>, field: string, len: number, file: string): Uint8Array {
  const v = o[field];
  let b: Uint8Array | null = null;
  try {
    if (typeof v === "string") b = fromHex(v);
  } catch {
    b = null;
  }
  if (b === null || b.length !== len)
    throw new CliError("ERR_VALIDATOR_KEY_FILE", `${file}: ${field} must be ${len} bytes of 0x hex`);
  return b;
}

/** Reads a validator key file (the node's format); the BLS secret is required, the operator key optional. */
export function readValidatorKey(file: string): ValidatorKey {
  const path = resolvePath(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(
      "ERR_VALIDATOR_KEY_FILE",
      `cannot read the validator key file ${path} (create one with \`cowboy validator keygen --out ${file}\`)`,
    );
  }
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    throw new CliError("ERR_VALIDATOR_KEY_FILE", `${path} is not valid JSON`);
  }
  if (typeof o !== "object" || o === null || Array.isArray(o))
    throw new CliError("ERR_VALIDATOR_KEY_FILE", `${path} must hold a JSON object`);
  const rec = o as Record<string, unknown>;
  if (rec.version !== KEY_FILE_VERSION)
    throw new CliError("ERR_VALIDATOR_KEY_FILE", `${path}: version must be ${KEY_FILE_VERSION}`);
  return {
    blsSecretKey: hexField(rec, "blsSecretKey", 32, path),
    operatorSecretKey:
      rec.operatorSecretKey === undefined ? null : hexField(rec, "operatorSecretKey", 32, path),
  };
}

function accountNamed(opts: ValidatorSignerOpts): boolean {
  return (
    (opts.dev !== undefined && opts.dev !== false) ||
    opts.account !== undefined ||
    (io().env.COWBOY_PRIVATE_KEY ?? "") !== ""
  );
}

/** The secret key of the account options (`--dev`, `--account`, `$COWBOY_PRIVATE_KEY`). */
function accountKey(opts: ValidatorSignerOpts): Uint8Array {
  const signer: SignerOpts = {
    ...(opts.dev !== undefined ? { dev: opts.dev } : {}),
    ...(opts.account !== undefined ? { key: opts.account } : {}),
    ...(opts.keysDir !== undefined ? { keysDir: opts.keysDir } : {}),
    ...(opts.passwordFile !== undefined ? { passwordFile: opts.passwordFile } : {}),
  };
  return secretKeyOf(signer);
}

/**
 * The operator's secret key: the account options, else the key file's operator key. When both
 * name one, they must agree (the validator's address is its operator account).
 */
function operatorKey(opts: ValidatorSignerOpts, key: ValidatorKey | null): Uint8Array {
  if (accountNamed(opts)) {
    const sk = accountKey(opts);
    if (key?.operatorSecretKey != null && !bytesEqual(sk, key.operatorSecretKey))
      throw new CliError(
        "ERR_VALIDATOR_OPERATOR_MISMATCH",
        `the signing account ${toHex(addressFromSecretKey(sk))} is not the key file's operator ${toHex(addressFromSecretKey(key.operatorSecretKey))}: drop --dev/--account/COWBOY_PRIVATE_KEY to sign with the key file`,
      );
    return sk;
  }
  if (key?.operatorSecretKey != null) return key.operatorSecretKey;
  throw new CliError(
    "ERR_NO_SIGNER",
    `no operator account to sign with: pass --key FILE (a key file of \`cowboy validator keygen\`), --dev N, --account NAME or set COWBOY_PRIVATE_KEY`,
  );
}

/** The key file named by `--key`, else `./validator.key` when it exists, else null. */
function keyFileOf(opts: ValidatorSignerOpts, required: boolean): ValidatorKey | null {
  if (opts.key !== undefined) return readValidatorKey(opts.key);
  if (existsSync(resolvePath(DEFAULT_KEY_FILE))) return readValidatorKey(DEFAULT_KEY_FILE);
  if (required)
    throw new CliError(
      "ERR_VALIDATOR_KEY_FILE",
      `no validator key file: pass --key FILE or create ${DEFAULT_KEY_FILE} with \`cowboy validator keygen\``,
    );
  return null;
}

function wallet(opts: ValidatorSignerOpts, key: ValidatorKey | null): WalletClient {
  return createWalletClient({ transport: rpcUrl(opts), secretKey: operatorKey(opts, key) });
}

function signerOptions(cmd: Command): Command {
  return rpcOptions(cmd)
    .option("--key <file>", `the validator key file (default ./${DEFAULT_KEY_FILE} when present)`)
    .option("--dev [index]", "sign with devnet development account <index> (default 0)")
    .option("--account <name>", "sign with a key saved by `cowboy keys new`")
    .option("--keys-dir <dir>", "key directory of --account (default: $COWBOY_KEYS_DIR, else ~/.cowboy/keys)")
    .option("--password-file <file>", "read --account's password from the first line of <file>")
    .option("--timeout <ms>", "how long to wait for the receipt", "60000");
}

/** Parses a CBY amount: `10000`, `10000.5`, `12000cby`; exact, up to 9 decimals. */
export function parseCby(text: string, what = "--stake"): bigint {
  const m = /^([0-9]+)(?:\.([0-9]{1,9}))?\s*(?:cby)?$/i.exec(text.trim());
  if (m === null)
    throw new CliError(
      "ERR_ARG",
      `${what} takes CBY with up to 9 decimals (10000 or 10000.5), got '${text}'`,
    );
  const v = BigInt(m[1] as string) * UNITS_PER_CBY + BigInt((m[2] ?? "").padEnd(9, "0") || "0");
  if (v >= 2n ** 64n) throw new CliError("ERR_ARG", `${what} ${text} exceeds 2^64-1 base units`);
  return v;
}

function timeoutOf(opts: ValidatorSignerOpts): number {
  const t = opts.timeout ?? "60000";
  if (!/^[1-9][0-9]{0,8}$/.test(t)) throw new CliError("ERR_ARG", `--timeout takes milliseconds, got '${t}'`);
  return Number(t);
}

/** `units` in whole CBY, rounded up (a `--stake` that is at least `units`). */
function ceilCby(units: bigint): string {
  return ((units + UNITS_PER_CBY - 1n) / UNITS_PER_CBY).toString();
}

/** The CLI's message for a failed validator transaction: what happened and the fix. */
export function validatorFailure(receipt: RpcReceipt): CliError {
  const f = parseValidatorError(receipt.error);
  if (f === null)
    return new CliError(
      `ERR_TX_${receipt.status.toUpperCase()}`,
      `the transaction ${receipt.status}${receipt.error === null ? "" : `: ${receipt.error}`}`,
    );
  if (f.code === "STAKE_TOO_LOW" && f.values.minStake !== undefined) {
    const min = formatCby(f.values.minStake);
    const stake = f.values.stake !== undefined ? formatCby(f.values.stake) : "the stake";
    return new CliError(
      f.errCode,
      `${stake} is below the minimum stake of ${min}: pass --stake ${ceilCby(f.values.minStake)} or more`,
    );
  }
  if (f.code === "BALANCE" && f.values.balance !== undefined) {
    const who = receipt.from === null ? "<address>" : toHex(receipt.from);
    return new CliError(
      f.errCode,
      `the operator holds ${formatCby(f.values.balance)}, less than the stake: fund ${who} (on a devnet: \`npx cowboy faucet ${who}\`) or stake less`,
    );
  }
  return new CliError(f.errCode, `${f.detail}: ${f.fix}`);
}

async function confirm(
  w: WalletClient,
  sent: SentTransaction,
  opts: ValidatorSignerOpts,
): Promise<RpcReceipt> {
  const r = await withProgress(
    `waiting for ${toHex(sent.hash).slice(0, 12)}… to be included`,
    w.waitForTransactionReceipt(sent.hash, { timeoutMs: timeoutOf(opts) }),
    io().isTTY && opts.json !== true,
  );
  if (r.status !== "success") throw validatorFailure(r);
  return r;
}

/** A validator record for `--json`: the node's JSON. */
function recordJson(v: RpcValidator | null): unknown {
  return v === null ? null : v.raw;
}

function statusText(v: RpcValidator, head: bigint): string {
  // a jail lasts until `jailedUntil`; after that the validator stays out until it unjails
  if (v.jailedUntil > head) return paint("red", "jailed");
  if (v.jailedUntil !== 0n) return paint("red", "jailed (jail over: `cowboy validator unjail`)");
  return v.status === "bonded" ? paint("green", "bonded") : paint("yellow", "exiting");
}

function recordFields(v: RpcValidator, head: bigint, inSet: boolean | null): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ["address", toHex(v.address)],
    ["status", statusText(v, head)],
    ["stake", `${formatCby(v.stake)}  ${v.stake} base units`],
    ["activation epoch", v.activationEpoch.toString()],
  ];
  if (inSet !== null) rows.push(["in current set", inSet ? "yes" : "no"]);
  rows.push(
    ["registered at", `block ${v.registeredHeight}`],
    ["exit height", v.exitHeight === 0n ? "-" : `block ${v.exitHeight}`],
    ["jailed until", v.jailedUntil === 0n ? "-" : `block ${v.jailedUntil}`],
    ["jail count", v.jailCount.toString()],
    ["slashed", formatCby(v.slashed)],
    ["missed votes", v.missed.toString()],
    ["bls key", toHex(v.blsKey)],
  );
  return rows;
}

/** Writes `text` to `path` unless it exists (and `force` is off); `mode` for secrets. */
function writeNew(path: string, text: string, force: boolean, mode?: number): void {
  if (existsSync(path) && !force)
    throw new CliError("ERR_FILE_EXISTS", `${path} already exists (pass --force to overwrite it)`);
  try {
    writeFileSync(path, text, mode === undefined ? {} : { mode });
    // `mode` applies only when the file is created: an overwritten file gets it here
    if (mode !== undefined) chmodSync(path, mode);
  } catch (err) {
    throw new CliError("ERR_FILE", `cannot write ${path}: ${(err as Error).message}`);
  }
}

export function registerValidator(program: Command): void {
  const v = program.command("validator").description("run a validator: keys, registration, exit, status");

  rpcOptions(
    v
      .command("keygen")
      .description("create a BLS validator key and its proof of possession (the node's key file format)")
      .option("--out <file>", "where to write the key file", DEFAULT_KEY_FILE)
      .option("--chain-id <n>", "chain the proof of possession is for (default: ask the node at --rpc)")
      .option("--dev [index]", "operator account: devnet development account <index>")
      .option("--account <name>", "operator account: a key saved by `cowboy keys new`")
      .option("--keys-dir <dir>", "key directory of --account")
      .option("--password-file <file>", "read --account's password from the first line of <file>")
      .option("--force", "overwrite existing files")
      .option("--show-secret", "also print the secret keys"),
  ).action(
    (opts: ValidatorSignerOpts & { out: string; chainId?: string; force?: boolean; showSecret?: boolean }) =>
      run(async () => {
        let chainId: bigint;
        if (opts.chainId !== undefined) {
          if (!/^(0|[1-9][0-9]{0,19})$/.test(opts.chainId) || BigInt(opts.chainId) >= 2n ** 64n)
            throw new CliError("ERR_ARG", `--chain-id takes a u64 decimal, got '${opts.chainId}'`);
          chainId = BigInt(opts.chainId);
        } else {
          chainId = await publicClient(opts).getChainId();
        }
        const native = loadNative();
        const operator = accountNamed(opts) ? accountKey(opts) : generateSecretKey();
        const ikm = generateSecretKey();
        const sk = Uint8Array.from(native.blsKeygen(Buffer.from(ikm)));
        ikm.fill(0);
        const pk = Uint8Array.from(native.blsPublicKey(Buffer.from(sk)));
        const pop = Uint8Array.from(native.blsProofOfPossession(Buffer.from(sk), chainId));
        const address = addressFromSecretKey(operator);
        const path = resolvePath(opts.out);
        const pubPath = `${path}.pub.json`;
        if (!opts.force)
          for (const p of [path, pubPath])
            if (existsSync(p))
              throw new CliError("ERR_FILE_EXISTS", `${p} already exists (pass --force to overwrite it)`);
        const keyFile = {
          version: KEY_FILE_VERSION,
          blsSecretKey: toHex(sk),
          operatorSecretKey: toHex(operator),
        };
        writeNew(path, `${JSON.stringify(keyFile, null, 2)}\n`, true, 0o600);
        const pub = {
          address: toHex(address),
          blsPublicKey: toHex(pk),
          proofOfPossession: toHex(pop),
          chainId: chainId.toString(),
        };
        writeNew(pubPath, `${JSON.stringify(pub, null, 2)}\n`, true);
        const secrets = opts.showSecret
          ? { blsSecretKey: keyFile.blsSecretKey, operatorSecretKey: keyFile.operatorSecretKey }
          : {};
        if (opts.json) {
          json({ keyFile: path, publicFile: pubPath, ...pub, ...secrets });
          return;
        }
        const rows: Array<[string, string]> = [
          ["key file", `${path} (secret, mode 0600)`],
          ["public file", pubPath],
          ["operator", toHex(address)],
          ["bls public key", toHex(pk)],
          ["proof of possession", `${toHex(pop)} (chain ${chainId})`],
        ];
        if (opts.showSecret)
          rows.push(["bls secret key", keyFile.blsSecretKey], ["operator secret", keyFile.operatorSecretKey]);
        out(fields(rows));
        out(
          `${paint("dim", "next")}  fund the operator, then \`cowboy validator register --stake <CBY> --key ${opts.out}\`\n`,
        );
      }),
  );

  signerOptions(
    v
      .command("register")
      .description("register the key file's BLS key as a validator, staking CBY of the operator's balance")
      .requiredOption("--stake <cby>", "stake in CBY (at least the chain's minimum, 10000 by default)"),
  ).action((opts: ValidatorSignerOpts & { stake: string }) =>
    run(async () => {
      const stake = parseCby(opts.stake);
      const key = keyFileOf(opts, true) as ValidatorKey;
      const w = wallet(opts, key);
      const native = loadNative();
      const chainId = await w.getChainId();
      const sk = Buffer.from(key.blsSecretKey);
      const blsKey = Uint8Array.from(native.blsPublicKey(sk));
      const proofOfPossession = Uint8Array.from(native.blsProofOfPossession(sk, chainId));
      let sent: SentTransaction;
      try {
        sent = await w.registerValidator({ blsKey, proofOfPossession, stake });
      } catch (err) {
        // the node refuses a stake (plus the fee) the operator cannot pay: say whom to fund
        if (err instanceof RpcRequestError && err.reason?.includes("BALANCE") === true) {
          const who = toHex(w.address);
          throw new CliError(
            err.errCode,
            `${err.message}: fund the operator ${who} with the stake plus the fee (on a devnet: \`npx cowboy faucet ${who}\`) or stake less`,
          );
        }
        throw err;
      }
      const r = await confirm(w, sent, opts);
      const rec = await w.getValidator(w.address);
      if (opts.json) {
        json({
          transactionHash: toHex(sent.hash),
          blockNumber: r.blockNumber.toString(),
          validator: recordJson(rec),
        });
        return;
      }
      out(`${paint("green", "registered")} ${toHex(w.address)} in block ${r.blockNumber}\n`);
      if (rec !== null) out(fields(recordFields(rec, r.blockNumber, null)));
      if (rec !== null)
        out(`${paint("dim", "next")}  the validator joins the set at epoch ${rec.activationEpoch}\n`);
    }),
  );

  const lifecycle = (
    name: string,
    description: string,
    send: (w: WalletClient) => Promise<SentTransaction>,
    done: (
      w: WalletClient,
      r: RpcReceipt,
      before: RpcValidator | null,
      after: RpcValidator | null,
    ) => Promise<string>,
  ) =>
    signerOptions(v.command(name).description(description)).action((opts: ValidatorSignerOpts) =>
      run(async () => {
        const w = wallet(opts, keyFileOf(opts, false));
        const before = await w.getValidator(w.address);
        if (before === null)
          throw new CliError(
            "ERR_VALIDATOR_UNKNOWN_VALIDATOR",
            `${toHex(w.address)} is not a validator: sign with the operator account that registered (--key FILE), or register first`,
          );
        const sent = await send(w);
        const r = await confirm(w, sent, opts);
        const after = await w.getValidator(w.address);
        if (opts.json) {
          json({
            transactionHash: toHex(sent.hash),
            blockNumber: r.blockNumber.toString(),
            validator: recordJson(after),
          });
          return;
        }
        out(await done(w, r, before, after));
      }),
    );

  lifecycle(
    "exit",
    "start unbonding: the validator leaves the set at the next epoch; withdraw after the unbonding period",
    (w) => w.exitValidator(),
    async (w, r) =>
      `${paint("yellow", "exiting")} ${toHex(w.address)} from block ${r.blockNumber}; \`cowboy validator withdraw\` once unbonded\n`,
  );
  lifecycle(
    "withdraw",
    "take the stake back once the validator has unbonded",
    (w) => w.withdrawStake(),
    async (w, r, before) =>
      `${paint("green", "withdrew")} ${formatCby(before?.stake ?? 0n)} to ${toHex(w.address)} in block ${r.blockNumber}; balance ${formatCby(await w.getBalance(w.address))}\n`,
  );
  lifecycle(
    "unjail",
    "release a jailed validator after its jail period (back in the set at the next epoch)",
    (w) => w.unjailValidator(),
    async (w, r) => `${paint("green", "unjailed")} ${toHex(w.address)} in block ${r.blockNumber}\n`,
  );

  signerOptions(
    v
      .command("status")
      .description("a validator's record: status, stake, activation epoch, jail, slashing")
      .argument("[address]", "the validator (default: the operator of --key / --dev / --account)"),
  ).action((address: string | undefined, opts: ValidatorSignerOpts) =>
    run(async () => {
      let who: Uint8Array;
      if (address !== undefined) {
        if (!/^0x[0-9a-fA-F]{40}$/.test(address))
          throw new CliError("ERR_ARG", `address must be 0x followed by 40 hex digits, got '${address}'`);
        who = fromHex(address.toLowerCase());
      } else {
        who = addressFromSecretKey(operatorKey(opts, keyFileOf(opts, false)));
      }
      const c = publicClient(opts);
      const rec = await c.getValidator(who);
      if (opts.json) {
        json(recordJson(rec));
        return;
      }
      if (rec === null)
        throw new CliError(
          "ERR_VALIDATOR_NOT_FOUND",
          `${toHex(who)} is not a registered validator (register with \`cowboy validator register --stake <CBY>\`)`,
        );
      const head = await c.getBlockNumber();
      const set = await c.getValidators();
      const inSet = set.validators.some((m) => bytesEqual(m.address, who));
      out(fields(recordFields(rec, head, inSet)));
    }),
  );

  rpcOptions(
    v
      .command("set")
      .description("an epoch's validator set with stakes (default: the next block's epoch)")
      .option("--epoch <n>", "the epoch"),
  ).action((opts: RpcOpts & { epoch?: string }) =>
    run(async () => {
      if (opts.epoch !== undefined && !/^(0|[1-9][0-9]{0,15})$/.test(opts.epoch))
        throw new CliError("ERR_ARG", `--epoch takes a decimal epoch number, got '${opts.epoch}'`);
      const set = await publicClient(opts).getValidators(
        opts.epoch === undefined ? undefined : BigInt(opts.epoch),
      );
      if (opts.json) {
        json({ ...set.raw, totalStake: `0x${set.totalStake.toString(16)}` });
        return;
      }
      if (set.validators.length === 0) {
        out(`epoch ${set.epoch}: no validator set (none registered, or not kept for this epoch)\n`);
        return;
      }
      const share = (s: bigint) =>
        set.totalStake === 0n ? "-" : `${(Number((s * 10_000n) / set.totalStake) / 100).toFixed(2)}%`;
      out(
        `${paint("bold", `epoch ${set.epoch}`)}: ${set.validators.length} validator${set.validators.length === 1 ? "" : "s"}, ${formatCby(set.totalStake)} staked\n`,
      );
      out(
        table(
          ["#", "address", "stake", "share"],
          set.validators.map((m) => [
            m.index.toString(),
            toHex(m.address),
            formatCby(m.stake),
            share(m.stake),
          ]),
        ),
      );
    }),
  );
}
