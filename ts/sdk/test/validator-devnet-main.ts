/**
 * Runs the short-epoch devnet of validator-devnet.ts as a process (for the Python client's
 * tests): epochs of `argv[2]` blocks (default 5), unbonding of `argv[3]` blocks (default 20),
 * 50 ms blocks; prints `{"http": …}` on one line and serves until stdin closes.
 */
import { startShortEpochDevnet } from "./validator-devnet.ts";

const epochBlocks = Number(process.argv[2] ?? "5");
const unbondingBlocks = Number(process.argv[3] ?? "20");
const devnet = await startShortEpochDevnet({ epochBlocks, unbondingBlocks });
process.stdout.write(`${JSON.stringify({ http: devnet.http })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void devnet.stop().then(() => process.exit(0));
});
