import { createHash } from "node:crypto";
import type { BlockRecord } from "../src/index.ts";

/** A deterministic chain of synthetic blocks for ledger tests. */
export function syntheticBlock(height: bigint, parentHash: Uint8Array): BlockRecord {
  const h = (s: string) => new Uint8Array(createHash("sha256").update(s).digest());
  const ntx = Number(height % 4n);
  const txHashes = Array.from({ length: ntx }, (_, i) => h(`tx-${height}-${i}`));
  const block = new TextEncoder().encode(`block ${height} with ${ntx} txs`);
  const emitter = (i: number) => h(`actor-${i}`).subarray(0, 20);
  return {
    height,
    hash: h(`block-${height}`),
    parentHash,
    block,
    txHashes,
    receipts: txHashes.map((_, i) => new TextEncoder().encode(`receipt ${height}/${i}`)),
    events: txHashes.flatMap((_, i) => [
      {
        emitter: emitter(i % 2),
        topic: new TextEncoder().encode(i % 2 ? "Transfer" : "Mint"),
        txIndex: i,
        logIndex: 0,
      },
      { emitter: emitter(i % 2), topic: new TextEncoder().encode("Log"), txIndex: i, logIndex: 1 },
    ]),
  };
}
