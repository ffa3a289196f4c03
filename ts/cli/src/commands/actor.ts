/**
 * Write commands: `cowboy deploy ACTOR.py`, `cowboy send ACTOR HANDLER [ARGS]`,
 * `cowboy transfer TO AMOUNT`, and the read-only `cowboy call ACTOR HANDLER
 * [ARGS]` (a simulation: nothing is committed). Handler arguments are a JSON
 * array turned into canonical CBOR (`argsFromJson`: integers stay exact,
 * `{"$bytes": "0x…"}` for bytes). Sending commands sign with `--dev N`,
 * `--key NAME` or `$COWBOY_PRIVATE_KEY`, fill nonce, limits and fees from the
 * node (each overridable), wait for the receipt and print it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  ActorCallError,
  argsFromJson,
  canonicalizeSource,
  decodeCbor,
  type PublicClient,
  parseHexLoose,
  type SentTransaction,
  type TxOverrides,
  toHex,
} from "@cowboy/sdk";
import type { Command } from "commander";
import {
  parseAddress,
  parseAmount,
  parseBlockTag,
  publicClient,
  type RpcOpts,
  readProjectConfig,
  rpcOptions,
  run,
  type SignerOpts,
  signerOptions,
  walletClient,
} from "../chain/context.ts";
import { CliError, CliExit } from "../errors.ts";
import { io } from "../io.ts";
import { fields, formatCby, paint, withProgress } from "../ui.ts";
import { formatReceipt, receiptJsonOut, showValue } from "./chain.ts";

const out = (text: string) => io().stdout(text);
const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);

/** Fee and nonce options of sending commands. */
export interface SendOpts extends SignerOpts {
  nonce?: string;
  cyclesLimit?: string;
  cellsLimit?: string;
  maxFeePerCycle?: string;
  maxFeePerCell?: string;
  tipPerCycle?: string;
  tipPerCell?: string;
  wait?: boolean;
  timeout?: string;
}

/** Adds signer, fee and wait options. */
export function sendOptions(cmd: Command): Command {
  return signerOptions(cmd)
    .option("--nonce <n>", "nonce (default: the account's next)")
    .option("--cycles-limit <n>", "cycle limit (default: the node's estimate with headroom)")
    .option("--cells-limit <n>", "cell limit (default: the node's estimate with headroom)")
    .option("--max-fee-per-cycle <n>", "fee cap per cycle in base units (default: the node's suggestion)")
    .option("--max-fee-per-cell <n>", "fee cap per cell in base units")
    .option("--tip-per-cycle <n>", "priority fee per cycle in base units")
    .option("--tip-per-cell <n>", "priority fee per cell in base units")
    .option("--no-wait", "return after submitting, without waiting for the receipt")
    .option("--timeout <ms>", "how long to wait for the receipt", "60000");
}

function u64(text: string | undefined, what: string): bigint | undefined {
  if (text === undefined) return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(text) || BigInt(text) >= 2n ** 64n) {
    throw new CliError("ERR_ARG", `${what} must be a non-negative integer below 2^64, got '${text}'`);
  }
  return BigInt(text);
}

/** The overrides `opts` names. */
export function overridesOf(opts: SendOpts): TxOverrides {
  const o: TxOverrides = {};
  const set = (k: keyof TxOverrides, v: bigint | undefined) => {
    if (v !== undefined) (o as Record<string, bigint>)[k] = v;
  };
  set("nonce", u64(opts.nonce, "--nonce"));
  set("cyclesLimit", u64(opts.cyclesLimit, "--cycles-limit"));
  set("cellsLimit", u64(opts.cellsLimit, "--cells-limit"));
  set("maxFeePerCycle", u64(opts.maxFeePerCycle, "--max-fee-per-cycle"));
  set("maxFeePerCell", u64(opts.maxFeePerCell, "--max-fee-per-cell"));
  set("maxPriorityFeePerCycle", u64(opts.tipPerCycle, "--tip-per-cycle"));
  set("maxPriorityFeePerCell", u64(opts.tipPerCell, "--tip-per-cell"));
  return o;
}

function timeoutOf(opts: SendOpts): number {
  const ms = Number(opts.timeout ?? "60000");
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new CliError("ERR_ARG", `--timeout takes milliseconds, got '${opts.timeout}'`);
  return ms;
}

/** Waits for and prints the receipt of `sent` (or just the hash with --no-wait); exit 1 when it failed. */
export async function finish(
  w: PublicClient,
  sent: SentTransaction,
  opts: SendOpts,
  extra: Record<string, string> = {},
): Promise<void> {
  if (opts.wait === false) {
    if (opts.json) return json({ transactionHash: toHex(sent.hash), ...extra });
    out(`${paint("dim", "submitted")} ${toHex(sent.hash)}\n`);
    for (const [k, v] of Object.entries(extra)) out(`${paint("dim", k)} ${v}\n`);
    return;
  }
  const r = await withProgress(
    `waiting for ${toHex(sent.hash).slice(0, 12)}… to be included`,
    w.waitForTransactionReceipt(sent.hash, { timeoutMs: timeoutOf(opts) }),
    io().isTTY && opts.json !== true,
  );
  if (opts.json) json({ ...receiptJsonOut(r), ...extra });
  else out(formatReceipt(r));
  if (r.status !== "success") {
    io().stderr(
      `cowboy: ERR_TX_${r.status.toUpperCase()}: the transaction ${r.status}${r.error === null ? "" : `: ${r.error}`}\n`,
    );
    throw new CliExit(1);
  }
}

function readSource(file: string): Uint8Array {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError("ERR_FILE", `cannot read ${file}: ${(err as Error).message}`);
  }
  return canonicalizeSource(text);
}

export function registerActor(program: Command): void {
  sendOptions(
    program
      .command("deploy")
      .description("deploy a Python actor; prints its address")
      .argument("[file]", 'the actor\'s source (default: cowboy.json "actor")')
      .option("--args <json>", "__init__ arguments as a JSON array", "[]")
      .option("--salt <hex>", "32-byte salt (default: derived from the nonce)")
      .option("--value <amount>", "coins to send along (base units or e.g. 1cby)", "0")
      .option("-q, --quiet", "print only the actor's address (for scripts: ACTOR=$(cowboy deploy -q …))"),
  ).action(
    (
      file: string | undefined,
      opts: SendOpts & { args: string; salt?: string; value: string; quiet?: boolean },
    ) =>
      run(async () => {
        const config = readProjectConfig();
        const path = file ?? config?.actor;
        if (path === undefined) {
          throw new CliError(
            "ERR_ARG",
            "name the actor file (cowboy deploy actor.py), or run inside a project made by `cowboy init`",
          );
        }
        const source = readSource(resolve(io().cwd(), path));
        const w = walletClient(opts);
        const salt = opts.salt === undefined ? undefined : parseHexLoose(opts.salt);
        if (salt !== undefined && salt.length !== 32)
          throw new CliError("ERR_ARG", "--salt must be 32 bytes of hex");
        const args = decodeCbor(argsFromJson(opts.args)) as never[];
        if (opts.wait === false) {
          const { actorAddress, defaultDeploySalt } = await import("@cowboy/sdk");
          const o = overridesOf(opts);
          const nonce = o.nonce ?? (await w.getNextNonce());
          const s = salt ?? defaultDeploySalt(nonce);
          const sent = await w.sendInstruction(
            {
              kind: "deploy",
              source,
              salt: s,
              initArgs: argsFromJson(opts.args),
              value: parseAmount(opts.value, "--value"),
            },
            { ...o, nonce },
          );
          const actor = toHex(actorAddress(w.address, s, source));
          if (opts.quiet) return out(`${actor}\n`);
          return finish(w, sent, opts, { actor });
        }
        try {
          const d = await withProgress(
            "deploying",
            w.deployActor(source, {
              ...overridesOf(opts),
              args,
              value: parseAmount(opts.value, "--value"),
              ...(salt !== undefined ? { salt } : {}),
              wait: { timeoutMs: timeoutOf(opts) },
            }),
            io().isTTY && opts.json !== true,
          );
          if (opts.json) return json({ ...receiptJsonOut(d.receipt), actor: toHex(d.address) });
          if (opts.quiet) return out(`${toHex(d.address)}\n`);
          out(`${paint("green", "deployed")} ${paint("bold", toHex(d.address))}\n`);
          out(
            fields([
              ["transaction", toHex(d.hash)],
              ["block", d.receipt.blockNumber.toString()],
              ["fee paid", formatCby(d.receipt.feePaid)],
              ["cycles used", d.receipt.cyclesUsed.toLocaleString("en-US")],
            ]),
          );
        } catch (err) {
          if (err instanceof ActorCallError && err.result !== null && "transactionHash" in err.result) {
            if (opts.json) json(receiptJsonOut(err.result));
            else out(formatReceipt(err.result));
            throw new CliExit(1);
          }
          throw err;
        }
      }),
  );

  sendOptions(
    program
      .command("send")
      .description("call an actor's handler in a transaction; prints the receipt and result")
      .argument("<actor>", "0x actor address")
      .argument("<handler>", "handler name")
      .argument("[args]", "arguments as a JSON array, e.g. '[1, \"a\"]'", "[]")
      .option("--value <amount>", "coins to send along (base units or e.g. 1cby)", "0"),
  ).action((actor: string, handler: string, args: string, opts: SendOpts & { value: string }) =>
    run(async () => {
      const to = parseAddress(actor, "actor");
      const encoded = argsFromJson(args);
      const w = walletClient(opts);
      const sent = await w.sendInstruction(
        { kind: "call", to, handler, args: encoded, value: parseAmount(opts.value, "--value") },
        overridesOf(opts),
      );
      await finish(w, sent, opts);
    }),
  );

  rpcOptions(
    program
      .command("call")
      .description("simulate a handler call (nothing is committed); prints the result, cycles, cells and fee")
      .argument("<actor>", "0x actor address")
      .argument("<handler>", "handler name")
      .argument("[args]", "arguments as a JSON array, e.g. '[1, \"a\"]'", "[]")
      .option("--from <address>", "the caller (default: the zero address)")
      .option("--value <amount>", "coins sent along (base units or e.g. 1cby)", "0")
      .option("--block <block>", "state of this block", "latest"),
  ).action(
    (
      actor: string,
      handler: string,
      args: string,
      opts: RpcOpts & { from?: string; value: string; block: string },
    ) =>
      run(async () => {
        const c = publicClient(opts);
        const r = await c.call(
          {
            to: parseAddress(actor, "actor"),
            handler,
            args: argsFromJson(args),
            value: parseAmount(opts.value, "--value"),
            ...(opts.from !== undefined ? { from: parseAddress(opts.from, "--from") } : {}),
          },
          parseBlockTag(opts.block),
        );
        if (opts.json) {
          const { resultToJson } = await import("@cowboy/sdk");
          json({ ...r.raw, decoded: r.ok && r.returnData.length > 0 ? resultToJson(r.returnData) : null });
        } else {
          const entries: Array<[string, string]> = [];
          if (r.ok) entries.push(["result", paint("bold", showValue(r.returnData))]);
          else
            entries.push(["error", paint("red", `${r.error?.type ?? "Error"}: ${r.error?.message ?? ""}`)]);
          entries.push(
            ["cycles", r.cyclesUsed.toLocaleString("en-US")],
            ["cells", r.cellsUsed.toLocaleString("en-US")],
          );
          if (r.fee !== null)
            entries.push(["fee estimate", `${formatCby(r.fee.fee)} (${r.fee.fee} base units)`]);
          if (r.events.length > 0) entries.push(["events", r.events.length.toString()]);
          out(fields(entries));
        }
        if (!r.ok) throw new CliExit(1);
      }),
  );

  sendOptions(
    program
      .command("transfer")
      .description("send coins to an address")
      .argument("<to>", "0x recipient")
      .argument("<amount>", "base units (1500) or CBY (1.5cby)"),
  ).action((to: string, amount: string, opts: SendOpts) =>
    run(async () => {
      const w = walletClient(opts);
      const sent = await w.transfer(parseAddress(to, "recipient"), parseAmount(amount), overridesOf(opts));
      await finish(w, sent, opts);
    }),
  );
}
