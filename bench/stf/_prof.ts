import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const s = new Session();
s.connect();
const post = (m: string, p?: object) =>
  new Promise<unknown>((res, rej) => s.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
const mod = await import("./suite.ts");
await post("Profiler.enable");
await post("Profiler.start");
const r = await mod.profileTransfers(Number(process.env.N ?? 4000), 3);
console.log(r);
const { profile } = (await post("Profiler.stop")) as { profile: unknown };
writeFileSync("/tmp/stfperf/t.cpuprofile", JSON.stringify(profile));
