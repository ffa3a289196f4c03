// the full stf suite, printed only (bench/results untouched: the machine is loaded)
import { run } from "./suite.ts";
const t0 = Date.now();
const m = await run();
for (const x of m) console.log(JSON.stringify({ name: x.name, value: Math.round(x.value), peer: Math.round(x.peer_value), ratio: x.ratio, spread: x.spread }));
console.log("seconds", (Date.now() - t0) / 1000);
