/**
 * An in-memory {@link StateBackend} for tests and tools: nested checkpoints over a base map,
 * commits that keep every version (for `getAt`), and a root that commits to the full contents:
 * keccak256 over the sorted `(len(key) ‖ key ‖ len(value) ‖ value)` entries with the version.
 * It is not the production store (crates/qmdb through `QmdbState` is) and its root differs
 * from qmdb's; it is O(state) per commit, fine for tests of a few thousand keys.
 */
import { keccak256 } from "@cowboy/sdk";
import type { StateBackend } from "./types.ts";

const hexKey = (k: Uint8Array) => Buffer.from(k).toString("latin1");

/** A pending write: a value or a deletion (null). */
type Layer = Map<string, Uint8Array | null>;

export class MemoryState implements StateBackend {
  private committed = new Map<string, Uint8Array>();
  private readonly history: Map<string, Uint8Array>[] = [];
  private layers: Layer[] = [new Map()];
  private readonly roots: Uint8Array[] = [];

  constructor() {
    this.history.push(new Map());
    this.roots.push(new Uint8Array(32));
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const k = hexKey(key);
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const v = (this.layers[i] as Layer).get(k);
      if (v !== undefined) return v === null ? undefined : v;
    }
    return this.committed.get(k);
  }

  put(key: Uint8Array, value: Uint8Array): void {
    (this.layers[this.layers.length - 1] as Layer).set(hexKey(key), Uint8Array.from(value));
  }

  delete(key: Uint8Array): void {
    (this.layers[this.layers.length - 1] as Layer).set(hexKey(key), null);
  }

  checkpoint(): number {
    this.layers.push(new Map());
    return this.layers.length - 1;
  }

  private check(cp: number): void {
    if (!Number.isInteger(cp) || cp < 1 || cp >= this.layers.length) {
      throw new RangeError(`checkpoint ${cp} is not open (${this.layers.length - 1} open)`);
    }
  }

  revert(cp: number): void {
    this.check(cp);
    this.layers.length = cp;
  }

  release(cp: number): void {
    this.check(cp);
    const outer = this.layers[cp - 1] as Layer;
    for (const layer of this.layers.slice(cp)) for (const [k, v] of layer) outer.set(k, v);
    this.layers.length = cp;
  }

  discardPending(): void {
    this.layers = [new Map()];
  }

  commit(): { version: bigint; root: Uint8Array } {
    const next = new Map(this.committed);
    for (const layer of this.layers) {
      for (const [k, v] of layer) {
        if (v === null) next.delete(k);
        else next.set(k, v);
      }
    }
    this.committed = next;
    this.layers = [new Map()];
    this.history.push(next);
    const version = BigInt(this.history.length - 1);
    const keys = [...next.keys()].sort();
    const parts: Uint8Array[] = [Buffer.from(`cowboy-memory-state:${version}`)];
    for (const k of keys) {
      const kb = Buffer.from(k, "latin1");
      const v = next.get(k) as Uint8Array;
      const len = Buffer.alloc(8);
      len.writeUInt32BE(kb.length, 0);
      len.writeUInt32BE(v.length, 4);
      parts.push(len, kb, v);
    }
    const root = keccak256(Buffer.concat(parts));
    this.roots.push(root);
    return { version, root };
  }

  root(): Uint8Array {
    return this.roots[this.roots.length - 1] as Uint8Array;
  }

  version(): bigint {
    return BigInt(this.history.length - 1);
  }

  getAt(version: bigint, key: Uint8Array): Uint8Array | undefined {
    const snap = this.history[Number(version)];
    return snap === undefined ? undefined : snap.get(hexKey(key));
  }

  prove(): Uint8Array | null {
    return null;
  }
}
