/**
 * Validator announcements (src/announce.ts): the wire format round-trips and refuses malformed
 * bytes; the verifier binds a key only for a valid BLS signature published by the announced
 * peer itself and listed by the chain's registry, keeps the newest binding, never rebinds a
 * network-file validator, and is bounded; the directory's peer indices are stable. Over two
 * real p2p nodes: the validator topic delivers the publisher as `origin`, a valid announcement
 * binds, and a forged one penalizes the relaying peer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadNative } from "@cowboy/consensus";
import { generateKeyPair } from "@libp2p/crypto/keys";
import { peerIdFromPrivateKey } from "@libp2p/peer-id";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AnnounceCrypto,
  AnnouncementVerifier,
  decodeAnnouncement,
  encodeAnnouncement,
  type RegistryAnswer,
  signAnnouncement,
  ValidatorDirectory,
  verifyAnnouncement,
} from "../src/announce.ts";
import { createNode, type P2pNode } from "../src/node.ts";

const x = loadNative();
const crypto: AnnounceCrypto = {
  sign: (sk, ns, m) => x.blsSignNamespaced(Buffer.from(sk), Buffer.from(ns), Buffer.from(m)),
  verify: (pk, ns, m, sig) =>
    x.blsVerifyNamespaced(Buffer.from(pk), Buffer.from(ns), Buffer.from(m), Buffer.from(sig)),
};
const key = (seed: number) => {
  const sk = Uint8Array.from(x.blsKeygen(Buffer.alloc(32, seed)));
  return { sk, pk: Uint8Array.from(x.blsPublicKey(Buffer.from(sk))) };
};
const peers: string[] = [];
beforeAll(async () => {
  for (let i = 0; i < 4; i++) peers.push(peerIdFromPrivateKey(await generateKeyPair("Ed25519")).toString());
});

const CHAIN = 7778n;
const addr = (b: number) => new Uint8Array(20).fill(b);

function announce(seed: number, address: Uint8Array, peerId: string, issuedAtMs = 1_000, chainId = CHAIN) {
  const k = key(seed);
  return encodeAnnouncement(
    signAnnouncement({ chainId, address, blsKey: k.pk, peerId, issuedAtMs }, k.sk, crypto),
  );
}

describe("validator announcements", () => {
  it("round-trip; malformed bytes and bad signatures are refused", () => {
    const k = key(1);
    const a = signAnnouncement(
      { chainId: CHAIN, address: addr(1), blsKey: k.pk, peerId: peers[0] as string, issuedAtMs: 5 },
      k.sk,
      crypto,
    );
    const bytes = encodeAnnouncement(a);
    const back = decodeAnnouncement(bytes);
    expect(back).toEqual(a);
    expect(verifyAnnouncement(back, crypto)).toBe(true);
    // any changed field breaks the signature
    expect(verifyAnnouncement({ ...back, issuedAtMs: 6 }, crypto)).toBe(false);
    expect(verifyAnnouncement({ ...back, peerId: peers[1] as string }, crypto)).toBe(false);
    expect(verifyAnnouncement({ ...back, chainId: 1n }, crypto)).toBe(false);
    expect(verifyAnnouncement({ ...back, blsKey: key(2).pk }, crypto)).toBe(false);
    // strict decoding
    expect(() => decodeAnnouncement(bytes.subarray(0, bytes.length - 1))).toThrow(
      /invalid validator announcement/,
    );
    expect(() => decodeAnnouncement(Uint8Array.from([2, ...bytes.subarray(1)]))).toThrow(/version/);
    expect(() => decodeAnnouncement(new Uint8Array(3))).toThrow(/length/);
    const badId = Uint8Array.from(bytes);
    badId[1 + 8 + 20 + 48 + 8 + 1] = 0x21; // '!' is not base58
    expect(() => decodeAnnouncement(badId)).toThrow(/peer id/);
  });

  it("binds a registered key to the peer that announced it; rejects what no honest node relays", () => {
    const fixed = key(9);
    const dir = new ValidatorDirectory([{ blsKey: fixed.pk, peerId: peers[3] as string }]);
    const registry = new Map<string, string>(); // address hex → key hex
    const reg = (a: Uint8Array, k: Uint8Array): RegistryAnswer => {
      const want = registry.get(Buffer.from(a).toString("hex"));
      return want === undefined
        ? "unknown"
        : want === Buffer.from(k).toString("hex")
          ? "registered"
          : "other-key";
    };
    const bound: string[] = [];
    const v = new AnnouncementVerifier({
      chainId: CHAIN,
      crypto,
      directory: dir,
      registry: reg,
      now: () => 10_000,
      onBound: (a) => bound.push(a.peerId),
    });
    const p0 = peers[0] as string;
    const good = announce(1, addr(1), p0);
    // not registered (yet): ignored, nothing bound
    expect(v.validate(good, p0)).toBe("ignore");
    expect(v.last).toBe("unregistered");
    registry.set(Buffer.from(addr(1)).toString("hex"), Buffer.from(key(1).pk).toString("hex"));
    // published by someone else than the announced peer: rejected
    expect(v.validate(good, peers[1] as string)).toBe("reject");
    expect(v.last).toBe("wrong-origin");
    expect(v.validate(good, null)).toBe("reject");
    expect(v.validate(good, p0)).toBe("accept");
    expect(v.last).toBe("bound");
    expect(bound).toEqual([p0]);
    expect(dir.peerOf(key(1).pk)).toBe(p0);
    const index = dir.indexOf(key(1).pk);
    expect(index).toBe(1); // after the one network-file validator
    expect(dir.entries()).toEqual([
      { index: 0, peerId: peers[3] },
      { index: 1, peerId: p0 },
    ]);
    // a repeat and a refresh: accepted, no new binding
    expect(v.validate(good, p0)).toBe("accept");
    expect(v.validate(announce(1, addr(1), p0, 2_000), p0)).toBe("accept");
    expect(v.last).toBe("known");
    expect(bound).toHaveLength(1);
    // an older binding to another peer: ignored; a newer one moves the key (same index)
    const p2 = peers[2] as string;
    expect(v.validate(announce(1, addr(1), p2, 1_500), p2)).toBe("ignore");
    expect(v.last).toBe("stale");
    expect(v.validate(announce(1, addr(1), p2, 3_000), p2)).toBe("accept");
    expect(dir.peerOf(key(1).pk)).toBe(p2);
    expect(dir.indexOf(key(1).pk)).toBe(index);
    // the key registered under another address, another chain, a bad signature, the future
    expect(v.validate(announce(1, addr(7), p2, 4_000), p2)).toBe("ignore");
    expect(v.last).toBe("unregistered");
    registry.set(Buffer.from(addr(2)).toString("hex"), Buffer.from(key(5).pk).toString("hex"));
    expect(v.validate(announce(1, addr(2), p2, 4_000), p2)).toBe("ignore");
    expect(v.last).toBe("other-key");
    expect(v.validate(announce(1, addr(1), p2, 4_000, 1n), p2)).toBe("reject");
    expect(v.last).toBe("wrong-chain");
    const forged = announce(1, addr(1), p2, 4_000);
    forged[forged.length - 1] = (forged[forged.length - 1] as number) ^ 1;
    expect(v.validate(forged, p2)).toBe("reject");
    expect(v.last).toBe("bad-signature");
    expect(v.validate(announce(1, addr(1), p2, 100_000), p2)).toBe("ignore");
    expect(v.last).toBe("future");
    expect(v.validate(new Uint8Array([1, 2, 3]), p2)).toBe("reject");
    expect(v.last).toBe("malformed");
    // a network-file validator's key announced on another peer: rejected; on its own: known
    expect(v.validate(announce(9, addr(9), p2, 4_000), p2)).toBe("reject");
    expect(v.last).toBe("network-file");
    expect(v.validate(announce(9, addr(9), peers[3] as string, 4_000), peers[3] as string)).toBe("accept");
    expect(dir.peerOf(fixed.pk)).toBe(peers[3]);
    // a key announced on a network-file validator's peer id cannot take it over
    registry.set(Buffer.from(addr(3)).toString("hex"), Buffer.from(key(3).pk).toString("hex"));
    expect(v.validate(announce(3, addr(3), peers[3] as string, 4_000), peers[3] as string)).toBe("reject");
    expect(dir.indexOf(fixed.pk)).toBe(0);
  });

  it("is bounded: a full directory ignores new keys until registry-less ones are pruned", () => {
    const dir = new ValidatorDirectory([]);
    const registered = new Set<string>();
    const v = new AnnouncementVerifier({
      chainId: CHAIN,
      crypto,
      directory: dir,
      registry: (_a, k) => (registered.has(Buffer.from(k).toString("hex")) ? "registered" : "unknown"),
      maxBindings: 1,
      now: () => 10_000,
    });
    for (const s of [1, 2]) registered.add(Buffer.from(key(s).pk).toString("hex"));
    expect(v.validate(announce(1, addr(1), peers[0] as string), peers[0] as string)).toBe("accept");
    expect(v.validate(announce(2, addr(2), peers[1] as string), peers[1] as string)).toBe("ignore");
    expect(v.last).toBe("full");
    // key 1 withdrawn from the registry: its binding makes room
    registered.delete(Buffer.from(key(1).pk).toString("hex"));
    expect(v.validate(announce(2, addr(2), peers[1] as string), peers[1] as string)).toBe("accept");
    expect(dir.peerOf(key(1).pk)).toBeNull();
    expect(dir.peerOf(key(2).pk)).toBe(peers[1]);
    // peer indices are stable per key and capped
    const small = new ValidatorDirectory([], 2);
    expect([small.indexOf(key(1).pk), small.indexOf(key(2).pk), small.indexOf(key(1).pk)]).toEqual([0, 1, 0]);
    expect(small.indexOf(key(3).pk)).toBe(-1);
  });
});

describe("peer index exhaustion", () => {
  /**
   * Registry churn: in each round two fresh keys are registered and announced, and the previous
   * round's keys have withdrawn (the registry no longer lists them). Key 9 is a member of an
   * epoch the node runs (asked for by index, never announced). Returns the outcomes.
   */
  function churn(dir: ValidatorDirectory, rounds: number): string[] {
    const registered = new Set<string>();
    const v = new AnnouncementVerifier({
      chainId: CHAIN,
      crypto,
      directory: dir,
      registry: (_a, k) => (registered.has(Buffer.from(k).toString("hex")) ? "registered" : "unknown"),
      maxBindings: 2,
      now: () => 1_000_000,
    });
    expect(dir.indexOf(key(9).pk)).toBe(0);
    const out: string[] = [];
    for (let r = 0; r < rounds; r++) {
      registered.clear();
      const seeds = [10 + 2 * r, 11 + 2 * r];
      for (const s of seeds) registered.add(Buffer.from(key(s).pk).toString("hex"));
      seeds.forEach((s, i) => {
        const peer = peers[i] as string;
        v.validate(announce(s, addr(s), peer, 1_000 + r), peer);
        out.push(v.last as string);
      });
    }
    return out;
  }

  it("recycles the indices of keys neither bound nor in use once they run out: churn cannot exhaust them", () => {
    const member = Buffer.from(key(9).pk).toString("hex");
    let calls = 0;
    const inUseKeys = () => {
      calls++;
      return new Set([member]);
    };
    const dir = new ValidatorDirectory([], 3, inUseKeys);
    const out = churn(dir, 30);
    // the in-use set is built once per recycle (at most once per new key), not once per assigned key
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(30 * 2);
    const many = new ValidatorDirectory([], 64, inUseKeys);
    for (let i = 0; i < 64; i++) expect(many.indexOf(key(100 + i).pk)).toBe(i);
    many.indexOf(key(9).pk); // full: one recycle frees the 64 unused keys' indices
    expect(many.indexOf(key(9).pk)).toBe(0);
    calls = 0;
    expect(many.recycle()).toBe(0); // only the member holds an index now
    expect(calls).toBe(1);
    for (let i = 0; i < 63; i++) many.indexOf(key(200 + i).pk);
    calls = 0;
    expect(many.recycle()).toBe(63);
    expect(calls).toBe(1);
    expect(out.every((o) => o === "bound")).toBe(true);
    expect(dir.assigned).toBeLessThanOrEqual(3);
    // the member keeps its index throughout; the last round's keys hold the two others
    expect(dir.indexOf(key(9).pk)).toBe(0);
    expect(dir.entries().map((e) => e.index)).toEqual([1, 2]);
    expect(dir.peerOf(key(10 + 2 * 29).pk)).toBe(peers[0]);
    expect(dir.peerOf(key(11 + 2 * 29).pk)).toBe(peers[1]);
    // with every index bound or in use, nothing is recycled and a new key gets none
    expect(dir.indexOf(key(200).pk)).toBe(-1);
    expect(dir.indexOf(key(9).pk)).toBe(0);
  });

  it("pruning that frees a binding refreshes the mirrored validator map before its index can be recycled", () => {
    const hexOf = (k: Uint8Array) => Buffer.from(k).toString("hex");
    const inUse = new Set([hexOf(key(9).pk)]);
    const dir = new ValidatorDirectory([], 2, () => inUse);
    const registered = new Set<string>();
    // the p2p validator map as the node keeps it: rebuilt on every binding and after pruning
    let map = dir.entries();
    const refreshed: string[] = [];
    const v = new AnnouncementVerifier({
      chainId: CHAIN,
      crypto,
      directory: dir,
      registry: (_a, k) => (registered.has(hexOf(k)) ? "registered" : "unknown"),
      maxBindings: 1,
      now: () => 1_000_000,
      onBound: () => {
        map = dir.entries();
        refreshed.push("bound");
      },
      onPruned: (n) => {
        map = dir.entries();
        refreshed.push(`pruned ${n}`);
      },
    });
    expect(dir.indexOf(key(9).pk)).toBe(0); // a member of a running epoch (never announced)
    registered.add(hexOf(key(10).pk));
    expect(v.validate(announce(10, addr(10), peers[0] as string, 1_000), peers[0] as string)).toBe("accept");
    expect(map).toEqual([{ index: 1, peerId: peers[0] }]);
    // key 10 withdraws but is still a member of an epoch the node routes for: its binding is
    // pruned to make room for key 11, whose binding then finds no index ("full")
    registered.delete(hexOf(key(10).pk));
    inUse.add(hexOf(key(10).pk));
    registered.add(hexOf(key(11).pk));
    expect(v.validate(announce(11, addr(11), peers[1] as string, 1_000), peers[1] as string)).toBe("ignore");
    expect(v.last).toBe("full");
    expect(refreshed).toEqual(["bound", "pruned 1"]);
    expect(map).toEqual([]); // no stale index → peer entry left behind
    // key 10 leaves the routed epochs; a new member asked for by the node gets its index
    inUse.delete(hexOf(key(10).pk));
    expect(dir.indexOf(key(12).pk)).toBe(1);
    expect(map.find((e) => e.index === 1)).toBeUndefined(); // not routed to key 10's old peer
  });

  it("(without an in-use predicate indices are never recycled, and the same churn fills the directory)", () => {
    const out = churn(new ValidatorDirectory([], 3), 30);
    expect(out.slice(0, 2)).toEqual(["bound", "bound"]);
    expect(out.at(-1)).toBe("full");
  });
});

describe("validator announcements over gossip", () => {
  it("the receiver sees the publisher as origin; valid ones bind, invalid ones penalize", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cowboy-announce-"));
    const nodes: P2pNode[] = [];
    try {
      const a = await createNode({
        chainId: "announce-test",
        identityPath: join(dir, "a.key"),
        transports: ["tcp"],
      });
      nodes.push(a);
      const b = await createNode({
        chainId: "announce-test",
        identityPath: join(dir, "b.key"),
        transports: ["tcp"],
        bootstrap: a.multiaddrs(),
        discoveryIntervalMs: 200,
      });
      nodes.push(b);
      const directory = new ValidatorDirectory([]);
      const k = key(4);
      const v = new AnnouncementVerifier({
        chainId: CHAIN,
        crypto,
        directory,
        registry: (_addr, pk) => (Buffer.from(pk).equals(Buffer.from(k.pk)) ? "registered" : "unknown"),
        onBound: () => b.setValidators(directory.entries()),
      });
      const origins: Array<string | null | undefined> = [];
      b.onGossip("validator", {
        validate: (bytes, from) => {
          origins.push(from.origin);
          return v.validate(bytes, from.origin ?? null);
        },
        deliver: () => {},
      });
      a.onGossip("validator", { validate: () => "accept", deliver: () => {} });
      const until = async (what: string, cond: () => boolean | Promise<boolean>) => {
        const deadline = Date.now() + 20_000;
        while (!(await cond())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await until("connected", () => b.connectedPeers().includes(a.peerId));
      const good = announce(4, addr(4), a.peerId, Date.now());
      await until("the announcement bound", async () => {
        await a.publish("validator", good);
        return directory.peerOf(k.pk) === a.peerId;
      });
      expect(origins).toContain(a.peerId);
      expect(b.validators.indexOf(a.peerId)).toBe(0);
      // a forged one (flipped signature bit) is rejected and the relaying peer penalized
      const forged = announce(4, addr(4), a.peerId, Date.now() + 1);
      forged[forged.length - 1] = (forged[forged.length - 1] as number) ^ 1;
      await until("the relayer penalized", async () => {
        await a.publish("validator", forged);
        return b.score(a.peerId) < 0;
      });
    } finally {
      for (const n of nodes) await n.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
