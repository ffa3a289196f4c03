/**
 * Runner jobs through the devnet's JSON-RPC (real store, real PVM): an actor submits a job with
 * `runner.submit`, `cowboy_getJob` shows it pending with its escrow, `cowboy_deliverJobResult`
 * delivers a result in the next block, the `@runner.continuation` runs, the runner is paid.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actorAddress, encodeCbor, toHex, utf8 } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { openQmdbState } from "../../src/cowboyd.ts";
import { DEFAULT_DEVNET_CONFIG, type DevnetConfig } from "../../src/devnet/config.ts";
import { DevnetNode } from "../../src/devnet/node.ts";
import { actorSender, client, topicOf, waitFor, waitReceipt } from "./helpers.ts";

const native = (await import("@cowboy/native")) as Record<string, unknown>;
const HAS_RUNTIME = typeof native.executeActor === "function";

const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-jobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORACLE = `from cowboy_sdk import actor, runner, emit

@actor
class Oracle:
    def __init__(self):
        self.storage["price"] = None

    def ask(self, max_price: int) -> bytes:
        return runner.submit("http", {"url": "https://example.org"}, "on_price", max_price, 50)

    @runner.continuation
    def on_price(self, job_id, result):
        self.storage["price"] = result["price"]
        emit("Price", result["price"])

    def price(self):
        return self.storage["price"]
`;

const CBY = 1_000_000_000n;

describe.skipIf(!HAS_RUNTIME)("runner jobs over RPC", () => {
  // on demand (`--block-time auto`) a queued result must get a block of its own, like a transaction
  const blockTimes: Array<[string, DevnetConfig["blockTime"]]> = [
    ["every 50 ms", { kind: "interval", ms: 50 }],
    ["on demand", { kind: "on-demand" }],
  ];
  it.each(blockTimes)("submits, reads, delivers and calls back (blocks %s)", async (label, blockTime) => {
    const config: DevnetConfig = {
      ...DEFAULT_DEVNET_CONFIG,
      dataDir: join(dir, label.replaceAll(" ", "-")),
      rpcPort: 0,
      blockTime,
    };
    const node = await DevnetNode.open(config, { openState: openQmdbState });
    const urls = await node.start();
    try {
      const c = client(urls.http);
      const me = node.keys.accounts[0];
      if (me === undefined) throw new Error("dev account");
      const source = utf8(ORACLE);
      const salt = new Uint8Array(32).fill(3);
      const actor = actorAddress(me.address, salt, source);
      const send = actorSender(() => c, me, node.chainId);
      const deployed = await send({
        kind: "deploy",
        source,
        salt,
        initArgs: encodeCbor([]),
        value: 100n * CBY,
      });
      expect(deployed.status, JSON.stringify(deployed)).toBe("success");
      const asked = await send({
        kind: "call",
        to: actor,
        handler: "ask",
        args: encodeCbor([CBY]),
        value: 0n,
      });
      expect(asked.status, JSON.stringify(asked)).toBe("success");
      const events = asked.events as Array<Record<string, string>>;
      expect(events[0]?.emitter).toBe(`0x${"00".repeat(19)}02`);
      const id = `0x${(asked.returnData as string).slice(6)}`; // CBOR bytes(32): 0x5820 ‖ id
      expect(id).toHaveLength(66);

      // what a runner watches: the Job Dispatcher's JobSubmitted events
      const logs = await c.ok<Array<Record<string, string>>>("cowboy_getLogs", [
        { address: `0x${"00".repeat(19)}02`, topics: [topicOf("JobSubmitted")], fromBlock: "0x0" },
      ]);
      expect(logs).toHaveLength(1);
      expect(logs[0]?.transactionHash).toBe(asked.transactionHash);
      const job = await c.ok<Record<string, unknown>>("cowboy_getJob", [id]);
      expect(job).toMatchObject({
        id,
        status: "pending",
        actor: toHex(actor),
        jobType: "http",
        callback: "on_price",
      });
      expect(await c.ok("cowboy_getBalance", [`0x${"00".repeat(19)}02`])).toBe(`0x${CBY.toString(16)}`);

      const runner = `0x${"77".repeat(20)}`;
      const hash = await c.ok<string>("cowboy_deliverJobResult", [
        id,
        toHex(encodeCbor({ price: 1234n })),
        runner,
      ]);
      const again = await c.call("cowboy_deliverJobResult", [id, toHex(encodeCbor(1n))]);
      expect((again.error?.data as { code?: string } | undefined)?.code).toBe("ERR_JOB_DELIVERED");
      const receipt = await waitReceipt(c, hash);
      expect(receipt.status, JSON.stringify(receipt)).toBe("success");
      expect(receipt.from).toBe(`0x${"00".repeat(19)}03`);
      const delivered = await waitFor(
        async () => {
          const j = await c.ok<Record<string, unknown>>("cowboy_getJob", [id]);
          return j.status === "delivered" ? j : null;
        },
        5_000,
        "delivered job",
      );
      expect(delivered).toMatchObject({
        runner,
        payment: `0x${CBY.toString(16)}`,
        callbackOk: true,
        spec: "0x",
      });
      // 89% of 1 CBY to the runner (no tip)
      expect(await c.ok("cowboy_getBalance", [runner])).toBe(`0x${((CBY * 89n) / 100n).toString(16)}`);
      const price = await c.ok<Record<string, unknown>>("cowboy_call", [
        { from: toHex(me.address), to: toHex(actor), handler: "price" },
      ]);
      expect(price.result).toBe(toHex(encodeCbor(1234n)));
      const unknown = await c.call("cowboy_deliverJobResult", [`0x${"00".repeat(32)}`, "0x01"]);
      expect(unknown.error?.code).toBe(-32000);
      expect(unknown.error?.data?.code).toBe("ERR_JOB_UNKNOWN");
    } finally {
      await node.stop();
    }
  });
});
