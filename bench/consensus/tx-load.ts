/**
 * `committed_tx_per_s_4` of the `consensus` suite: four validator processes (the localnet of
 * ts/node/src/localnet.ts: BLS Simplex over QUIC, each executing every block with the state
 * transition function on its own QMDB store) under a load of signed transfers sent to all
 * four validators' JSON-RPC (each sender to one validator, gossip spreads them). The value is
 * the number of transfers divided by the time from the first submission until the last
 * receipt is served by validator 0 (finalized and executed). Peer: the same localnet code with
 * a single validator (no network, no vote exchange), which isolates the cost of consensus.
 * Both at 100 ms pacing (`minViewMs`): unpaced, a lone validator produces empty blocks as fast
 * as it can commit them and the measurement would be of that, not of consensus.
 *
 * Run: `node bench/consensus/tx-load.ts` (adds or replaces the metric in
 * bench/results/consensus.json, keeping the suite's other metrics).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { deriveDevKeys } from "@cowboy/node/devnet";
import { encodeTransaction, signTransaction, toHex, zeroSignature } from "@cowboy/sdk";
import {
  DEFAULT_LOCALNET,
  planLocalnet,
  spawnValidator,
  type ValidatorProcess,
} from "../../ts/node/src/localnet.ts";
import { compare, type Metric, RESULTS_DIR, type Sample, summarize, writeSuite } from "../lib/report.ts";

const SENDERS = 10;
const PER_SENDER = 40;
/** both networks propose at most every 100 ms: unpaced, a lone validator spends its time on empty blocks */
const PACING_MS = 100;

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/** Committed transfers per second of one localnet of `n` validators. */
export async function committedTxPerSecond(n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-txload-"));
  const procs: ValidatorProcess[] = [];
  try {
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      validators: n,
      dir,
      basePort: 33_000 + Math.floor(Math.random() * 20_000),
      rpcPort: 0,
      blockTimeMs: PACING_MS,
      logLevel: "warn",
    });
    for (let i = 0; i < n; i++)
      procs.push(
        spawnValidator(
          i,
          paths[i] as string,
          (line) => process.env.TXLOAD_LOG && process.stderr.write(`v${i} ${line}\n`),
        ),
      );
    const urls = (await Promise.all(procs.map((p) => p.ready))).map((r) => r.rpc);
    const url0 = urls[0] as string;
    while (BigInt((await rpc(url0, "cowboy_blockNumber", [])) as string) < 2n)
      await new Promise((r) => setTimeout(r, 100));
    const chainId = BigInt((await rpc(url0, "cowboy_chainId", [])) as string);
    const keys = deriveDevKeys(SENDERS).accounts;
    const sink = new Uint8Array(20).fill(0xee);
    // sign everything first: the measured part is submission, ordering, execution, finality
    const batches = keys.map((k) =>
      Array.from({ length: PER_SENDER }, (_, nonce) =>
        toHex(
          encodeTransaction(
            signTransaction(
              {
                chainId,
                nonce: BigInt(nonce),
                instruction: { kind: "transfer", to: sink, amount: 1n },
                cyclesLimit: 21_000n,
                cellsLimit: 1_000n,
                maxFeePerCycle: 20_000n,
                maxFeePerCell: 20_000n,
                maxPriorityFeePerCycle: 0n,
                maxPriorityFeePerCell: 0n,
                from: k.address,
                accessList: null,
                metadata: new Uint8Array(0),
                originTxHash: null,
                originRemainingCycles: null,
                originRemainingCells: null,
                signature: zeroSignature(),
                additionalSigners: [],
              },
              k.secretKey,
            ),
          ),
        ),
      ),
    );
    const start = performance.now();
    const hashes = await Promise.all(
      batches.map(async (txs, s) => {
        const url = urls[s % n] as string;
        const out: string[] = [];
        for (const raw of txs) out.push((await rpc(url, "cowboy_sendRawTransaction", [raw])) as string);
        return out;
      }),
    );
    // the last nonce of every sender final on validator 0 ⇒ all of its transfers are
    for (const list of hashes) {
      const last = list[list.length - 1] as string;
      while ((await rpc(url0, "cowboy_getTransactionReceipt", [last])) === null)
        await new Promise((r) => setTimeout(r, 20));
    }
    return (SENDERS * PER_SENDER) / ((performance.now() - start) / 1000);
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The metric, over `runs` runs of each network. */
export async function run(runs = 3): Promise<Metric[]> {
  const four: number[] = [];
  const one: number[] = [];
  for (let r = 0; r < runs; r++) {
    four.push(await committedTxPerSecond(4));
    one.push(await committedTxPerSecond(1));
  }
  const ours: Sample = summarize(four);
  const theirs: Sample = summarize(one);
  return [compare("committed_tx_per_s_4", "1/s", true, ours, "localnet-1-validator", theirs)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(RESULTS_DIR, "consensus.json");
  const previous: Metric[] = existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as { metrics: Metric[] }).metrics
    : [];
  const added = await run();
  const names = new Set(added.map((m) => m.name));
  writeSuite("consensus", [...previous.filter((m) => !names.has(m.name)), ...added]);
}
