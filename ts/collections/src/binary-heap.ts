/**
 * A binary min-heap under a caller-given strict ordering `before(a, b)`
 * ("a comes out before b"). push/pop are O(log n); peek is O(1).
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];
  private readonly before: (a: T, b: T) => boolean;

  constructor(before: (a: T, b: T) => boolean) {
    this.before = before;
  }

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as T, items[parent] as T)) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0] as T;
    const last = items.pop() as T;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.before(items[l] as T, items[m] as T)) m = l;
        if (r < items.length && this.before(items[r] as T, items[m] as T)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m] as T, items[i] as T];
        i = m;
      }
    }
    return top;
  }
}
