/**
 * `node bench/stf/actors.ts [runs]`: only the `actor_calls_per_s` part of the `stf` suite
 * (blocks of counter `increment` calls through `Chain.buildBlock`), printing each run's calls/s
 * and the CPU per call (main thread and whole process, from `lastCpu`), which depend far less
 * on other load than the wall-clock rate. Scaled by the suite's `BENCH_STF_SENDERS` and
 * `BENCH_STF_BLOCKS`.
 */
import { actorCalls, benchKeys, lastCpu } from "./suite.ts";

const runs = Number(process.argv[2] ?? 3);
const senders = Number(process.env.BENCH_STF_SENDERS ?? 2_000);
const blocks = Number(process.env.BENCH_STF_BLOCKS ?? 3);
const { keys, addrs } = benchKeys(senders);
for (let r = 0; r < runs; r++) {
  const rate = actorCalls(keys, addrs, blocks);
  process.stdout.write(
    `${JSON.stringify({
      actor_calls_per_s: Math.round(rate),
      main_us_per_call: Math.round(lastCpu.mainUsPerTx),
      process_us_per_call: Math.round(lastCpu.processUsPerTx),
    })}\n`,
  );
}
