/**
 * `cowboy tx …`: build, inspect and sign transactions with the pure-TypeScript
 * codec of `@cowboy/sdk` (works without the native addon; byte-identical to it).
 *
 * - `cowboy tx encode <json|@file|->`: TxJson (docs/codec.md §8) → canonical hex.
 * - `cowboy tx decode <hex|@file|->`: canonical hex → pretty JSON with
 *   `signingHash`, the recovered `signer` and whether the signatures verify.
 * - `cowboy tx sign --key <hex> <json|hex|@file|->`: signs as `from` (or, with
 *   `--additional`, as a listed co-signer) and prints the signed hex (or JSON).
 * - `cowboy tx hash <json|hex|@file|->`: the signing hash (= transaction digest).
 * - `cowboy tx send <json|hex|@file|->`: submits to a node (`--rpc`): signed hex as
 *   is; an unsigned transaction is signed first with `--dev N` / `--key NAME` /
 *   `$COWBOY_PRIVATE_KEY`; then waits for and prints the receipt.
 * - `cowboy tx get <hash>`: a transaction from a node, pending or included.
 *
 * Hex output is lowercase without a `0x` prefix (as in spec Appendix A); hex
 * input may carry one. Rule violations exit 1 with
 * `cowboy: ERR_CODEC_<CODE>: <field>: <rule>` (or `ERR_SIG_*`, `ERR_TX_JSON_FIELD`).
 */
import { readFileSync } from "node:fs";
import {
  checkSignatures,
  decodeWithSigningHash,
  encodeTransaction,
  isSdkError,
  parseHexLoose,
  parseTxJson,
  recoverAddress,
  SigError,
  signAdditional,
  signingHash,
  signTransaction,
  type Transaction,
  toHex,
  toHexRaw,
  toJson,
} from "@cowboy/sdk";
import type { Command } from "commander";
import { publicClient, type RpcOpts, rpcOptions, run, secretKeyOf, signerOptions } from "../chain/context.ts";
import { CliError } from "../errors.ts";
import { io } from "../io.ts";
import { paint } from "../ui.ts";
import { finish, type SendOpts } from "./actor.ts";

/** Reads an argument that is inline text, `@file` or `-` (stdin). */
function readInput(arg: string): string {
  if (arg === "-") {
    try {
      return readFileSync(0, "utf8");
    } catch (err) {
      throw new CliError("ERR_FILE", `cannot read stdin: ${(err as Error).message}`);
    }
  }
  if (arg.startsWith("@")) {
    const file = arg.slice(1);
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new CliError("ERR_FILE", `cannot read ${file}: ${(err as Error).message}`);
    }
  }
  return arg;
}

function hexArg(text: string, what: string): Uint8Array {
  try {
    return parseHexLoose(text);
  } catch {
    throw new CliError(
      "ERR_INVALID_HEX",
      `${what}: expected hex digits (an optional 0x prefix, an even count)`,
    );
  }
}

/** Parses a transaction given as TxJson (text starting with `{`) or as canonical hex. */
function parseTx(text: string): Transaction {
  const t = text.trim();
  if (t.startsWith("{")) return parseTxJson(t);
  return decodeWithSigningHash(hexArg(t, "transaction")).tx;
}

/** Turns the SDK's typed errors into CLI errors (`cowboy: <ERR_CODE>: <message>`). */
function cli<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isSdkError(err)) throw new CliError(err.errCode, err.message);
    throw err;
  }
}

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

/** The `tx decode` report: the TxJson with `signingHash`, then `signer`, `verified` and a `note` when useful. */
export function describeTransaction(bytes: Uint8Array): Record<string, unknown> {
  const { tx, signingHash: hash } = decodeWithSigningHash(bytes);
  const out: Record<string, unknown> = { ...toJson(tx, hash) };
  if (isZero(tx.signature)) {
    out.signer = null;
    out.verified = false;
    out.note =
      tx.originTxHash !== null
        ? "system-injected deferred transaction (origin_tx_hash set): unsigned, nodes do not verify its signature"
        : "unsigned: the signature is all zero (this encoding is the signing preimage)";
    return out;
  }
  try {
    out.signer = toHex(recoverAddress(hash, tx.signature, "signature"));
  } catch (err) {
    if (!(err instanceof SigError)) throw err;
    out.signer = null;
    out.verified = false;
    out.note = `${err.errCode}: ${err.message}`;
    return out;
  }
  try {
    checkSignatures(tx, hash);
    out.verified = true;
  } catch (err) {
    if (!(err instanceof SigError)) throw err;
    out.verified = false;
    out.note = `${err.errCode}: ${err.message}`;
  }
  return out;
}

export function registerTx(program: Command): void {
  const tx = program
    .command("tx")
    .description("encode, decode, hash and sign transactions (canonical codec)");

  tx.command("encode")
    .description("encode a JSON transaction (docs/codec.md §8) as canonical hex")
    .argument("<json>", "the transaction as JSON, @file or - for stdin")
    .action((arg: string) => {
      const hex = cli(() => toHexRaw(encodeTransaction(parseTxJson(readInput(arg)))));
      process.stdout.write(`${hex}\n`);
    });

  tx.command("decode")
    .description("decode canonical hex strictly; print JSON with signingHash and the recovered signer")
    .argument("<hex>", "the encoded transaction (optional 0x), @file or - for stdin")
    .action((arg: string) => {
      const bytes = hexArg(readInput(arg), "transaction");
      const report = cli(() => describeTransaction(bytes));
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    });

  tx.command("hash")
    .description("print the signing hash (= transaction digest) of a JSON or hex transaction")
    .argument("<tx>", "JSON or hex, @file or - for stdin")
    .action((arg: string) => {
      const hash = cli(() => signingHash(parseTx(readInput(arg))));
      process.stdout.write(`${toHex(hash)}\n`);
    });

  tx.command("sign")
    .description("sign a JSON or hex transaction (RFC 6979, low-S) and print the signed hex")
    .requiredOption("--key <hex>", "32-byte secp256k1 secret key (hex)")
    .option("--additional", "sign as a listed additional signer instead of as from")
    .option("--json", "print the signed transaction as JSON instead of hex")
    .argument("<tx>", "JSON or hex, @file or - for stdin")
    .action((arg: string, opts: { key: string; additional?: boolean; json?: boolean }) => {
      const key = hexArg(opts.key, "--key");
      const out = cli(() => {
        const unsigned = parseTx(readInput(arg));
        const signed = opts.additional ? signAdditional(unsigned, key) : signTransaction(unsigned, key);
        return opts.json
          ? JSON.stringify(toJson(signed, signingHash(signed)), null, 2)
          : toHexRaw(encodeTransaction(signed));
      });
      process.stdout.write(`${out}\n`);
    });

  signerOptions(
    tx
      .command("send")
      .description("submit a transaction to a node (signing it first when unsigned) and print the receipt")
      .argument("<tx>", "JSON or hex, @file or - for stdin")
      .option("--no-wait", "return after submitting")
      .option("--timeout <ms>", "how long to wait for the receipt", "60000"),
  ).action((arg: string, opts: SendOpts) =>
    run(async () => {
      let parsed = cli(() => parseTx(readInput(arg)));
      if (isZero(parsed.signature)) {
        const key = secretKeyOf(opts);
        parsed = cli(() => signTransaction(parsed, key));
      } else {
        cli(() => checkSignatures(parsed));
      }
      const c = publicClient(opts);
      const raw = encodeTransaction(parsed);
      const hash = await c.sendRawTransaction(raw);
      await finish(c, { hash, transaction: parsed, raw }, opts);
    }),
  );

  rpcOptions(
    tx
      .command("get")
      .description("a transaction from a node, pending or included")
      .argument("<hash>", "0x hash"),
  ).action((hash: string, opts: RpcOpts) =>
    run(async () => {
      const t = await publicClient(opts).getTransaction(hexArg(hash, "hash"));
      if (t === null)
        throw new CliError("ERR_NOT_FOUND", `no transaction ${hash} on this node (check the hash and --rpc)`);
      if (opts.json) {
        io().stdout(`${JSON.stringify(t.raw, null, 2)}\n`);
        return;
      }
      const where =
        t.blockNumber === null
          ? paint("yellow", "pending")
          : `block ${t.blockNumber}, index ${t.transactionIndex}`;
      io().stdout(`${paint("dim", "status")}  ${where}\n`);
      io().stdout(`${JSON.stringify(toJson(t.transaction, t.hash), null, 2)}\n`);
    }),
  );
}
