import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { findSafetyViolation } from "@cowboy/consensus";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { afterAll, describe, expect, it } from "vitest";
import { loadOrCreateIdentity } from "../src/identity.ts";
import { waitFor } from "./toy-chain.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-multiprocess-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 4;

describe("four validator processes on loopback (BLS, QUIC, file journal, block sync)", () => {
  it("finalize one chain; survive one kill; halt without a fork at two; resume and catch up after restarts", async () => {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: N }, (_, i) => base + i);
    const dataDirs = Array.from({ length: N }, (_, i) => join(dir, `v${i}`));
    const peerIds: string[] = [];
    for (const d of dataDirs) {
      mkdirSync(d, { recursive: true });
      peerIds.push(peerIdFromPrivateKey((await loadOrCreateIdentity(join(d, "p2p.key"))).key).toString());
    }
    /** digests by height as each validator reported them (across restarts) */
    const chains: string[][] = Array.from({ length: N }, () => []);
    const synced: number[][] = Array.from({ length: N }, () => []);
    const procs: Array<ChildProcess | null> = Array.from({ length: N }, () => null);
    const start = (i: number) => {
      const args = JSON.stringify({
        dataDir: dataDirs[i],
        me: i,
        n: N,
        seed: "multiprocess",
        ports,
        peerIds,
      });
      const p = spawn(process.execPath, [join(import.meta.dirname, "validator-process.ts"), args], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      createInterface({ input: p.stdout as NodeJS.ReadableStream }).on("line", (line) => {
        const ev = JSON.parse(line) as { ev: string; h?: number; d?: string; syncedTo?: number };
        if (ev.ev === "final") (chains[i] as string[])[(ev.h as number) - 1] = ev.d as string;
        if (ev.ev === "started") (synced[i] as number[]).push(ev.syncedTo as number);
      });
      procs[i] = p;
    };
    const kill = async (i: number) => {
      const p = procs[i];
      procs[i] = null;
      if (p === null || p === undefined || p.exitCode !== null || p.signalCode !== null) return;
      const exited = new Promise((r) => p.once("exit", r));
      p.kill("SIGKILL");
      await exited;
    };
    const height = (i: number) => (chains[i] as string[]).length;
    const live = () => [0, 1, 2, 3].filter((i) => procs[i] !== null);
    try {
      for (let i = 0; i < N; i++) start(i);
      await waitFor(
        "10 finalized blocks on every validator",
        () => [0, 1, 2, 3].every((i) => height(i) >= 10),
        90_000,
      );

      // one down (f = 1): the others keep finalizing
      await kill(3);
      const h1 = Math.max(...live().map(height));
      await waitFor("progress with validator 3 down", () => live().every((i) => height(i) >= h1 + 10));

      // two down: no quorum, finality halts (and nothing forks)
      await kill(2);
      await new Promise((r) => setTimeout(r, 1_500));
      const halted = Math.max(...live().map(height));
      await new Promise((r) => setTimeout(r, 4_000));
      expect(Math.max(...live().map(height))).toBeLessThanOrEqual(halted + 1);

      // both return: they sync, vote, and the chain resumes on all four
      start(2);
      start(3);
      await waitFor(
        "finality resumes on all four",
        () => [0, 1, 2, 3].every((i) => height(i) >= halted + 10),
        90_000,
      );
      expect(findSafetyViolation(chains)).toBeNull();
      // the restarted validators resumed from their own files and synced the rest from peers
      expect((synced[3] as number[]).length).toBe(2);
      expect((synced[3] as number[])[1]).toBeGreaterThanOrEqual(h1);
      // no holes: every height was reported by every validator
      for (const c of chains) for (let h = 0; h < c.length; h++) expect(typeof c[h]).toBe("string");
    } finally {
      for (let i = 0; i < N; i++) await kill(i);
    }
  }, 360_000);
});

describe("an equivocating validator process", () => {
  it("is detected by the others, who verify the evidence and slash and jail it; the chain stays safe", async () => {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: N }, (_, i) => base + i);
    const dataDirs = Array.from({ length: N }, (_, i) => join(dir, `e${i}`));
    const peerIds: string[] = [];
    for (const d of dataDirs) {
      mkdirSync(d, { recursive: true });
      peerIds.push(peerIdFromPrivateKey((await loadOrCreateIdentity(join(d, "p2p.key"))).key).toString());
    }
    const chains: string[][] = Array.from({ length: N }, () => []);
    const slashed: Array<{ by: number; address: string; amount: string; jailedUntil: number }> = [];
    const procs: ChildProcess[] = [];
    try {
      for (let i = 0; i < N; i++) {
        const args = JSON.stringify({
          dataDir: dataDirs[i],
          me: i,
          n: N,
          seed: "equivocation",
          ports,
          peerIds,
          equivocate: i === 3,
        });
        const p = spawn(process.execPath, [join(import.meta.dirname, "validator-process.ts"), args], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        createInterface({ input: p.stdout as NodeJS.ReadableStream }).on("line", (line) => {
          const ev = JSON.parse(line) as {
            ev: string;
            h?: number;
            d?: string;
            address?: string;
            amount?: string;
            jailedUntil?: number;
          };
          if (ev.ev === "final") (chains[i] as string[])[(ev.h as number) - 1] = ev.d as string;
          if (ev.ev === "slashed")
            slashed.push({
              by: i,
              address: ev.address as string,
              amount: ev.amount as string,
              jailedUntil: ev.jailedUntil as number,
            });
        });
        procs.push(p);
      }
      await waitFor("an equivocation punished", () => slashed.length > 0, 120_000);
      await waitFor("30 finalized blocks", () => chains.every((c) => c.length >= 30), 120_000);
      // validator 3 (address 0x…04) is the only one punished; each further equivocation it is
      // caught in costs 1% of what is left and doubles the 24 h jail
      for (const by of [0, 1, 2, 3]) {
        let stake = 100_000n;
        let k = 0;
        for (const s of slashed.filter((x) => x.by === by)) {
          expect(by).not.toBe(3);
          expect(s.address).toBe("4".padStart(40, "0"));
          expect(BigInt(s.amount)).toBe(stake / 100n);
          expect(s.jailedUntil).toBeGreaterThanOrEqual(86_400 * 2 ** k);
          stake -= BigInt(s.amount);
          k++;
        }
      }
      expect(findSafetyViolation(chains)).toBeNull();
    } finally {
      for (const p of procs) {
        if (p.exitCode !== null || p.signalCode !== null) continue;
        const exited = new Promise((r) => p.once("exit", r));
        p.kill("SIGKILL");
        await exited;
      }
    }
  }, 300_000);
});
