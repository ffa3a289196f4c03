/**
 * Python actors through the devnet's JSON-RPC, on the real state store and the addon's
 * actor runtime: deploy a counter with a timer, call it with signed transactions, simulate
 * a call, read its storage with a verified state proof, find its events by filter, watch
 * its timer fire through an `events` subscription (and list it with `cowboy_getTimers`),
 * check fees and receipts, then stop and
 * reopen the node and find everything still there (and the timer still firing).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actorAddress, encodeCbor, fromHex, toHex, utf8, verifyStateProof } from "@cowboy/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { openQmdbState } from "../../src/cowboyd.ts";
import { DEFAULT_DEVNET_CONFIG, type DevnetConfig } from "../../src/devnet/config.ts";
import { DevnetNode } from "../../src/devnet/node.ts";
import { actorSender, type Client, COUNTER, client, collectEvents, topicOf, waitFor } from "./helpers.ts";

const native = (await import("@cowboy/native")) as Record<string, unknown>;
const HAS_RUNTIME = typeof native.executeActor === "function";

const dir = mkdtempSync(join(tmpdir(), "cowboy-devnet-actors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config: DevnetConfig = {
  ...DEFAULT_DEVNET_CONFIG,
  dataDir: dir,
  rpcPort: 0,
  blockTime: { kind: "interval", ms: 50 },
};

describe.skipIf(!HAS_RUNTIME)("actors over RPC", () => {
  it("deploys, calls, simulates, proves, filters events, fires timers, and survives a restart", async () => {
    let node = await DevnetNode.open(config, { openState: openQmdbState });
    let urls = await node.start();
    let c: Client = client(urls.http);
    const me = node.keys.accounts[0];
    if (me === undefined) throw new Error("dev account");
    const source = utf8(COUNTER);
    const salt = new Uint8Array(32).fill(7);
    const actor = actorAddress(me.address, salt, source);
    const send = actorSender(() => c, me, node.chainId);

    // deploy with a balance that pays for the timer's fires
    const deployed = await send({
      kind: "deploy",
      source,
      salt,
      initArgs: encodeCbor([]),
      value: 1_000_000_000_000n,
    });
    expect(deployed.status, JSON.stringify(deployed)).toBe("success");
    expect(deployed.contractAddress).toBe(toHex(actor));
    expect(await c.ok("cowboy_getCode", [toHex(actor)])).toBe(toHex(source));

    // a call: result, event, fee
    const called = await send({
      kind: "call",
      to: actor,
      handler: "increment",
      args: encodeCbor([]),
      value: 0n,
    });
    expect(called.status, JSON.stringify(called)).toBe("success");
    expect(called.returnData).toBe(toHex(encodeCbor(1)));
    const events = called.events as Array<Record<string, string>>;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      emitter: toHex(actor),
      topic: topicOf("Counted"),
      data: toHex(encodeCbor("one more")),
    });
    const fee = BigInt(called.feePaid as string);
    const used = BigInt(called.cyclesUsed as string);
    const cells = BigInt(called.cellsUsed as string);
    expect(fee).toBe(
      used * (BigInt(called.cycleBasefee as string) + 1n) +
        cells * (BigInt(called.cellBasefee as string) + 1n),
    );

    // simulation returns 2 and commits nothing
    const sim = await c.ok<Record<string, unknown>>("cowboy_call", [
      { from: toHex(me.address), to: toHex(actor), handler: "increment" },
    ]);
    expect(sim.ok).toBe(true);
    expect(sim.result).toBe(toHex(encodeCbor(2)));
    expect(BigInt(sim.cyclesUsed as string)).toBeGreaterThan(0n);
    const key = toHex(encodeCbor("count"));
    const read = await c.ok<Record<string, string>>("cowboy_getStorageAt", [toHex(actor), key]);
    expect(read.value).toBe(toHex(encodeCbor(1)));
    const verified = verifyStateProof(
      fromHex(read.stateRoot as string),
      fromHex(read.key as string),
      fromHex(read.proof as string),
    );
    expect(verified.exists && toHex(verified.value)).toBe(read.value);

    // events by filter
    const logs = await c.ok<Array<Record<string, string>>>("cowboy_getLogs", [
      { address: toHex(actor), fromBlock: "earliest", topics: [topicOf("Counted")] },
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.transactionHash).toBe(called.transactionHash);

    // a timer every 2 blocks, watched through a subscription
    const ticks = await collectEvents(urls.ws, "events", toHex(actor), topicOf("Tick"));
    const started = await send({
      kind: "call",
      to: actor,
      handler: "start",
      args: encodeCbor([2]),
      value: 0n,
    });
    expect(started.status, JSON.stringify(started)).toBe("success");
    const timers = await c.ok<Array<Record<string, string>>>("cowboy_getTimers", [toHex(actor)]);
    expect(timers).toHaveLength(1);
    expect(timers[0]).toMatchObject({ actor: toHex(actor), handler: "tick", interval: "0x2" });
    expect(BigInt(timers[0]?.fireAt as string)).toBeGreaterThan(BigInt(started.blockNumber as string));
    expect(await c.ok("cowboy_getTimers", [toHex(me.address)])).toEqual([]);
    await waitFor(async () => (ticks.events.length >= 2 ? true : null), 20_000, "two timer fires");
    ticks.close();
    const fire = await c.ok<Record<string, unknown>>("cowboy_getTransactionReceipt", [
      ticks.events[0]?.transactionHash,
    ]);
    expect(fire.kind).toBe("timer");
    expect(fire.status).toBe("success");
    const [b0, b1] = [
      BigInt(ticks.events[0]?.blockNumber as string),
      BigInt(ticks.events[1]?.blockNumber as string),
    ];
    expect(b1 - b0).toBe(2n);

    // restart: storage, code, logs still there; the timer keeps firing
    const countBefore = (await c.ok<Record<string, string>>("cowboy_getStorageAt", [toHex(actor), key]))
      .value;
    await node.stop();
    node = await DevnetNode.open(config, { openState: openQmdbState });
    urls = await node.start();
    c = client(urls.http);
    expect((await c.ok<Record<string, string>>("cowboy_getStorageAt", [toHex(actor), key])).value).toBe(
      countBefore,
    );
    expect(await c.ok("cowboy_getCode", [toHex(actor)])).toBe(toHex(source));
    const ticksKey = toHex(encodeCbor("ticks"));
    const t0 = (await c.ok<Record<string, string>>("cowboy_getStorageAt", [toHex(actor), ticksKey])).value;
    await waitFor(
      async () => {
        const t = (await c.ok<Record<string, string>>("cowboy_getStorageAt", [toHex(actor), ticksKey])).value;
        return t !== t0 ? t : null;
      },
      20_000,
      "a timer fire after the restart",
    );
    await node.stop();
  }, 120_000);
});
