import { encodeCbor } from "@cowboy/sdk";
import { executionOrder } from "../../ts/node/src/stf/chain.ts";
import { decodeTx } from "../../ts/node/src/stf/hash.ts";
import { benchKeys, sign } from "./suite.ts";
const { keys, addrs } = benchKeys(2000);
const args = encodeCbor([1]);
const txs = keys.map((k, i) => sign(k, addrs[i]!, 1n, { kind: "call", to: addrs[0]!, handler: "increment", args, value: 0n }, 30_000n, 1_000n));
const t0 = process.threadCpuUsage();
const dec = txs.map((b) => decodeTx(b));
const t1 = process.threadCpuUsage(t0);
console.log("decodeTx us/tx", ((t1.user + t1.system) / 2000).toFixed(1));
const beacon = new Uint8Array(32).fill(7);
for (let r = 0; r < 5; r++) {
  const c0 = process.threadCpuUsage();
  for (let j = 0; j < 10; j++) executionOrder(dec, beacon, BigInt(r * 10 + j));
  const c = process.threadCpuUsage(c0);
  console.log("executionOrder us/tx", ((c.user + c.system) / 20000).toFixed(2));
}
