/**
 * The synchronous key/value view the execution layer works against. In the node it is the
 * authenticated state store's per-block overlay (crates/qmdb through the addon); tests and
 * tools can use {@link MemoryKv}, a plain in-memory implementation of the same interface.
 */
export interface KvStore {
  get(key: Uint8Array): Uint8Array | undefined;
  put(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}

/** An in-memory {@link KvStore}. */
export class MemoryKv implements KvStore {
  private readonly map = new Map<string, Uint8Array>();

  get size(): number {
    return this.map.size;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(Buffer.from(key).toString("latin1"));
  }

  put(key: Uint8Array, value: Uint8Array): void {
    this.map.set(Buffer.from(key).toString("latin1"), Uint8Array.from(value));
  }

  delete(key: Uint8Array): void {
    this.map.delete(Buffer.from(key).toString("latin1"));
  }
}
