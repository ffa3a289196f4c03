// Child process for the crash test: appends synthetic blocks forever until killed.
import { Ledger } from "../src/index.ts";
import { syntheticBlock } from "./ledger-fixtures.ts";

const dir = process.argv[2] as string;
const ledger = await Ledger.open(dir);
let head = ledger.head();
process.stdout.write("ready\n");
for (;;) {
  const height = head === null ? 0n : head.height + 1n;
  await ledger.append(syntheticBlock(height, head === null ? new Uint8Array(32) : head.hash));
  head = ledger.head();
}
