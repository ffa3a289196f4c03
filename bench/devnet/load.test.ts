/**
 * Smoke test of the devnet benchmark's load generator against a `cowboyd` child process
 * (no Hardhat): 20 transfers and 8 counter calls from 4 senders, every one committed and
 * accounted for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CowboyTarget, type RunningCowboyd, startCowboyd } from "./cowboy.ts";
import { percentile, runLoad } from "./load.ts";

describe("percentile", () => {
  it("takes the nearest rank", () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(v, 0.5)).toBe(5);
    expect(percentile(v, 0.9)).toBe(9);
    expect(percentile(v, 0.99)).toBe(10);
    expect(percentile(v, 0)).toBe(1);
    expect(() => percentile([], 0.5)).toThrow();
  });
});

describe("devnet load generator", () => {
  let node: RunningCowboyd;
  let target: CowboyTarget;

  beforeAll(async () => {
    node = await startCowboyd({ blockTime: "auto", accounts: 5 });
    target = await CowboyTarget.setUp(node.ws, 4);
  }, 60_000);

  afterAll(async () => {
    target?.close();
    await node?.stop();
  });

  it("commits 20 transfers from 4 senders and measures them", async () => {
    const r = await runLoad(target, "transfer", { senders: 4, perSender: 5, window: 2, timeoutMs: 20_000 });
    expect(r.transactions).toBe(20);
    expect(r.latenciesMs).toHaveLength(20);
    expect(r.latenciesMs.every((ms) => ms > 0)).toBe(true);
    expect(r.tps).toBeGreaterThan(0);
    expect(r.blocks).toBeGreaterThanOrEqual(1);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(r.latenciesMs[r.latenciesMs.length - 1] as number);
  });

  it("commits counter calls and the counter counts them", async () => {
    const before = await target.effect("call");
    const r = await runLoad(target, "call", { senders: 4, perSender: 2, window: 2, timeoutMs: 20_000 });
    expect(r.transactions).toBe(8);
    expect(await target.effect("call")).toBe(before + 8n);
  });

  it("refuses more senders than the target has", async () => {
    await expect(runLoad(target, "transfer", { senders: 5, perSender: 1, window: 1 })).rejects.toThrow(
      /5 senders requested, 4 available/,
    );
  });
});
