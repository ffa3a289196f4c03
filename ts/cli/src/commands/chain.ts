/**
 * Read commands against a node: `cowboy status`, `balance`, `block`, `receipt`,
 * `logs` (with `--follow` over WebSocket), `timers` and `faucet`. Human output is
 * tables and aligned fields (coloured on a terminal); `--json` prints the node's
 * JSON (plus decoded values) for scripts. Every command takes `--rpc <url>`.
 */
import {
  createPublicClient,
  decodeCbor,
  encodeTopics,
  formatValue,
  type PublicClient,
  type RpcBlock,
  type RpcEvent,
  type RpcReceipt,
  type RpcTransaction,
  resultToJson,
  toHex,
} from "@cowboy/sdk";
import type { Command } from "commander";
import {
  parseAddress,
  parseAmount,
  parseBlockTag,
  parseHash,
  publicClient,
  type RpcOpts,
  rpcOptions,
  rpcUrl,
  run,
  type SignerOpts,
  signerAddress,
  signerOptions,
} from "../chain/context.ts";
import { CliError } from "../errors.ts";
import { io } from "../io.ts";
import { fields, formatCby, paint, status, table, withProgress } from "../ui.ts";

const out = (text: string) => io().stdout(text);
const json = (value: unknown) => out(`${JSON.stringify(value, null, 2)}\n`);

/** Bytes shown as text when they are printable UTF-8, else as hex. */
export function showBytes(b: Uint8Array): string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(b);
    if (text.length > 0 && /^[\x20-\x7e]+$/.test(text)) return text;
  } catch {
    // not UTF-8
  }
  return toHex(b);
}

/** Canonical CBOR shown as a Python value; other bytes as hex. */
export function showValue(b: Uint8Array): string {
  if (b.length === 0) return "None";
  try {
    return formatValue(decodeCbor(b));
  } catch {
    return toHex(b);
  }
}

function valueJson(b: Uint8Array): unknown {
  try {
    return resultToJson(b);
  } catch {
    return { $raw: toHex(b) };
  }
}

function kindOf(tx: RpcTransaction): string {
  const ix = tx.transaction.instruction;
  return ix.kind === "call" ? `call ${ix.handler}` : ix.kind;
}

function targetOf(tx: RpcTransaction): string {
  const ix = tx.transaction.instruction;
  if (ix.kind === "transfer" || ix.kind === "call") return toHex(ix.to);
  if (ix.kind === "scheduleTimer" || ix.kind === "cancelTimer") return toHex(ix.actor);
  return "";
}

/** Human form of a block. */
export function formatBlock(b: RpcBlock): string {
  const time = new Date(Number(b.timestamp)).toISOString();
  let text = fields([
    ["block", paint("bold", b.number.toString())],
    ["hash", toHex(b.hash)],
    ["parent", toHex(b.parentHash)],
    ["time", time],
    ["proposer", b.proposer === null ? "" : toHex(b.proposer)],
    ["state root", toHex(b.stateRoot)],
    ["basefees", `${b.cycleBasefee} per cycle, ${b.cellBasefee} per cell`],
    ["used", `${b.cyclesUsed.toLocaleString("en-US")} cycles, ${b.cellsUsed.toLocaleString("en-US")} cells`],
    ["transactions", b.transactionCount.toString()],
  ]);
  const txs = b.transactions;
  if (txs.length > 0 && !(txs[0] instanceof Uint8Array)) {
    const rows = (txs as RpcTransaction[]).map((t, i) => [
      i.toString(),
      toHex(t.hash),
      toHex(t.transaction.from),
      kindOf(t),
      targetOf(t),
    ]);
    text += `\n${table(["#", "hash", "from", "kind", "to"], rows)}`;
  } else if (txs.length > 0) {
    text += `\n${(txs as Uint8Array[]).map((h) => `  ${toHex(h)}`).join("\n")}\n`;
  }
  return text;
}

/** Human form of an event's topic and data. */
function eventRow(e: RpcEvent): string[] {
  return [
    e.blockNumber?.toString() ?? "",
    toHex(e.emitter),
    showTopics(e),
    showValue(e.data),
    e.transactionHash === null ? "" : toHex(e.transactionHash),
  ];
}

/** Human form of a receipt. */
export function formatReceipt(r: RpcReceipt): string {
  const entries: Array<[string, string]> = [
    ["transaction", toHex(r.transactionHash)],
    ["status", status(r.status)],
    ["block", `${r.blockNumber} (${toHex(r.blockHash)}), index ${r.transactionIndex}`],
  ];
  if (r.from !== null) entries.push(["from", toHex(r.from)]);
  if (r.to !== null) entries.push(["to", toHex(r.to)]);
  if (r.contractAddress !== null) entries.push(["actor", paint("cyan", toHex(r.contractAddress))]);
  entries.push(["cycles used", r.cyclesUsed.toLocaleString("en-US")]);
  entries.push(["cells used", r.cellsUsed.toLocaleString("en-US")]);
  entries.push(["fee paid", `${formatCby(r.feePaid)} (${r.feePaid} base units)`]);
  if (r.returnData.length > 0) entries.push(["result", showValue(r.returnData)]);
  if (r.error !== null) entries.push(["error", paint("red", r.error)]);
  let text = fields(entries);
  if (r.events.length > 0) {
    text += `\n${table(["block", "emitter", "topic", "data", "transaction"], r.events.map(eventRow))}`;
  }
  return text;
}

/** JSON of a receipt: the node's JSON plus the decoded `result`. */
export function receiptJsonOut(r: RpcReceipt): Record<string, unknown> {
  return { ...r.raw, result: r.returnData.length === 0 ? null : valueJson(r.returnData) };
}

function eventJsonOut(e: RpcEvent): Record<string, unknown> {
  return { ...e.raw, topics: e.topics?.map((t) => showBytes(t)) ?? null, decoded: valueJson(e.data) };
}

/** A `--topic`: `0x…` is the raw topic field; text is an event name (a one-topic list, as the node records it). */
function topicArg(text: string): Uint8Array {
  if (/^0x([0-9a-fA-F]{2})+$/.test(text))
    return Uint8Array.from(text.slice(2).match(/../g) ?? [], (h) => parseInt(h, 16));
  return encodeTopics(text);
}

/** An event's topics as text (`Beat`, `Transfer, 0xaabb`), else the raw field. */
export function showTopics(e: RpcEvent): string {
  return e.topics === null ? showBytes(e.topic) : e.topics.map(showBytes).join(", ");
}

async function resolveAddress(arg: string | undefined, opts: SignerOpts): Promise<Uint8Array> {
  if (arg !== undefined) return parseAddress(arg);
  const own = signerAddress(opts);
  if (own === null) throw new CliError("ERR_ARG", "name an address, or an account with --dev N / --key NAME");
  return own;
}

export function registerChain(program: Command): void {
  rpcOptions(
    program.command("status").description("chain id, head, finalized height, basefees, mempool size"),
  ).action((opts: RpcOpts) =>
    run(async () => {
      const c = publicClient(opts);
      const s = await c.getStatus();
      if (opts.json) {
        return json({
          url: rpcUrl(opts),
          chainId: s.chainId.toString(),
          head: { number: s.head.number.toString(), hash: toHex(s.head.hash) },
          finalized: s.finalized.toString(),
          nextCycleBasefee: s.nextCycleBasefee.toString(),
          nextCellBasefee: s.nextCellBasefee.toString(),
          pendingTransactions: s.pendingTransactions.toString(),
        });
      }
      out(
        fields([
          ["node", rpcUrl(opts)],
          ["chain id", s.chainId.toString()],
          ["head", `${paint("bold", s.head.number.toString())} ${toHex(s.head.hash)}`],
          ["finalized", s.finalized.toString()],
          ["next basefees", `${s.nextCycleBasefee} per cycle, ${s.nextCellBasefee} per cell`],
          ["pending txs", s.pendingTransactions.toString()],
        ]),
      );
    }),
  );

  signerOptions(
    program
      .command("balance")
      .description("balance of an address (or of the account named by --dev/--key)")
      .argument("[address]", "0x address")
      .option("--block <block>", "latest, finalized or a height", "latest"),
  ).action((address: string | undefined, opts: SignerOpts & { block: string }) =>
    run(async () => {
      const who = await resolveAddress(address, opts);
      const c = publicClient(opts);
      const balance = await c.getBalance(who, parseBlockTag(opts.block));
      if (opts.json) return json({ address: toHex(who), balance: balance.toString(), block: opts.block });
      out(`${paint("bold", formatCby(balance))}  ${paint("dim", `${balance} base units, ${toHex(who)}`)}\n`);
    }),
  );

  rpcOptions(
    program
      .command("block")
      .description("a block by height, tag or hash (default: latest)")
      .argument("[block]", "latest, finalized, earliest, a height or a 0x block hash", "latest")
      .option("--txs", "list the block's transactions"),
  ).action((arg: string, opts: RpcOpts & { txs?: boolean }) =>
    run(async () => {
      const c = publicClient(opts);
      const full = opts.txs === true;
      const b = /^0x[0-9a-fA-F]{64}$/.test(arg)
        ? await c.getBlock({ hash: parseHash(arg) }, { includeTransactions: full })
        : await c.getBlock({ tag: parseBlockTag(arg) }, { includeTransactions: full });
      if (b === null)
        throw new CliError(
          "ERR_NOT_FOUND",
          `block ${arg} does not exist (see \`cowboy status\` for the head)`,
        );
      if (opts.json) return json(b.raw);
      out(formatBlock(b));
    }),
  );

  rpcOptions(
    program
      .command("receipt")
      .description("the receipt of a transaction: status, fee, result, events")
      .argument("<hash>", "0x transaction hash")
      .option("--wait [ms]", "wait for it to be included (default up to 60000 ms)"),
  ).action((hash: string, opts: RpcOpts & { wait?: string | boolean }) =>
    run(async () => {
      const c = publicClient(opts);
      const h = parseHash(hash, "transaction hash");
      let r: RpcReceipt | null;
      if (opts.wait !== undefined && opts.wait !== false) {
        const ms = opts.wait === true ? 60_000 : Number(opts.wait);
        if (!Number.isSafeInteger(ms) || ms <= 0)
          throw new CliError("ERR_ARG", `--wait takes milliseconds, got '${opts.wait}'`);
        r = await withProgress(
          `waiting for ${hash.slice(0, 12)}… to be included`,
          c.waitForTransactionReceipt(h, { timeoutMs: ms }),
          io().isTTY && opts.json !== true,
        );
      } else {
        r = await c.getTransactionReceipt(h);
      }
      if (r === null) {
        const pending = await c.getTransaction(h);
        throw new CliError(
          "ERR_NOT_FOUND",
          pending === null
            ? `no transaction ${hash} on this node (check the hash and --rpc)`
            : `transaction ${hash} is pending, not yet in a block (retry, or pass --wait)`,
        );
      }
      if (opts.json) return json(receiptJsonOut(r));
      out(formatReceipt(r));
    }),
  );

  rpcOptions(
    program
      .command("logs")
      .description("events emitted by an actor")
      .argument("<actor>", "0x actor address")
      .option("--topic <name...>", "only events named so (or 0x hex of the raw topic field)")
      .option("--from-block <block>", "first block (default: latest)")
      .option("--to-block <block>", "last block (default: latest)")
      .option("--follow", "keep printing new events as they happen (WebSocket) until Ctrl-C")
      .option("--count <n>", "with --follow: exit after n new events"),
  ).action(
    (
      actor: string,
      opts: RpcOpts & {
        topic?: string[];
        fromBlock?: string;
        toBlock?: string;
        follow?: boolean;
        count?: string;
      },
    ) =>
      run(async () => {
        const address = parseAddress(actor, "actor");
        const topics = opts.topic?.map(topicArg);
        const count = opts.count === undefined ? null : Number(opts.count);
        if (count !== null && (!Number.isSafeInteger(count) || count < 1)) {
          throw new CliError("ERR_ARG", `--count takes a positive number of events, got '${opts.count}'`);
        }
        const c = publicClient(opts);
        const filter = {
          address,
          ...(topics !== undefined ? { topics } : {}),
          ...(opts.fromBlock !== undefined ? { fromBlock: parseBlockTag(opts.fromBlock) } : {}),
          ...(opts.toBlock !== undefined ? { toBlock: parseBlockTag(opts.toBlock) } : {}),
        };
        const events = await c.getLogs(filter);
        if (opts.json && !opts.follow) return json(events.map(eventJsonOut));
        const header = ["block", "emitter", "topic", "data", "transaction"];
        if (opts.json) for (const e of events) out(`${JSON.stringify(eventJsonOut(e))}\n`);
        else if (events.length > 0 || !opts.follow) {
          out(events.length === 0 ? paint("dim", "no events\n") : table(header, events.map(eventRow)));
        }
        if (opts.follow) await follow(opts, address, topics, opts.json === true, count);
      }),
  );

  rpcOptions(
    program
      .command("timers")
      .description("pending timers of an actor")
      .argument("<actor>", "0x actor address"),
  ).action((actor: string, opts: RpcOpts) =>
    run(async () => {
      const c = publicClient(opts);
      const timers = await c.getTimers(parseAddress(actor, "actor"));
      if (opts.json) return json(timers.map((t) => t.raw));
      if (timers.length === 0) return out(paint("dim", "no pending timers\n"));
      out(
        table(
          ["fires at", "handler", "every", "id"],
          timers.map((t) => [
            t.fireAt.toString(),
            t.handler,
            t.interval === null ? "once" : `${t.interval} blocks`,
            toHex(t.id),
          ]),
        ),
      );
    }),
  );

  signerOptions(
    program
      .command("faucet")
      .description("get test coins from a devnet's faucet")
      .argument("[address]", "0x address (default: the account named by --dev/--key)")
      .option("--amount <amount>", "base units or CBY (e.g. 10cby); default: the faucet's"),
  ).action((address: string | undefined, opts: SignerOpts & { amount?: string }) =>
    run(async () => {
      const who = await resolveAddress(address, opts);
      const c = publicClient(opts);
      const amount = opts.amount === undefined ? undefined : parseAmount(opts.amount);
      const hash = await c.requestFaucet(who, amount);
      if (opts.json) return json({ address: toHex(who), transaction: toHex(hash) });
      out(`${paint("green", "requested")} coins for ${toHex(who)}: transaction ${toHex(hash)}\n`);
    }),
  );
}

/** Prints events as they arrive until Ctrl-C, or until `count` events arrived. */
async function follow(
  opts: RpcOpts,
  address: Uint8Array,
  topics: Uint8Array[] | undefined,
  asJson: boolean,
  count: number | null,
) {
  const url = rpcUrl(opts).replace(/^http/i, "ws");
  const ws: PublicClient = createPublicClient({ transport: url });
  let seen = 0;
  let stop: () => void = () => {};
  const onSigint = () => stop();
  try {
    await new Promise<void>((resolve, reject) => {
      stop = resolve;
      process.once("SIGINT", onSigint);
      ws.watchEvents(
        { address, ...(topics !== undefined ? { topics } : {}) },
        (e) => {
          out(
            asJson
              ? `${JSON.stringify(eventJsonOut(e))}\n`
              : `${eventRow(e)
                  .filter((c) => c !== "")
                  .join("  ")}\n`,
          );
          seen++;
          if (count !== null && seen >= count) resolve();
        },
        reject,
      ).catch(reject);
    });
  } finally {
    process.off("SIGINT", onSigint);
    await ws.close();
  }
}
