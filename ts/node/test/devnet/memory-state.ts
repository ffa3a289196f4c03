/**
 * Test harness: an {@link OpenState} over the STF's in-memory `MemoryState`, one store per
 * directory name kept for the life of the test process, so a node can be stopped and opened
 * again on the same "directory" without the addon's qmdb bindings.
 */
import type { OpenState } from "../../src/devnet/node.ts";
import { Chain, MemoryState } from "../../src/stf/index.ts";

export function memoryStates(): { openState: OpenState; stores: Map<string, MemoryState> } {
  const stores = new Map<string, MemoryState>();
  const openState: OpenState = (dir) => {
    let state = stores.get(dir);
    if (state === undefined) {
      state = new MemoryState();
      stores.set(dir, state);
    }
    const s = state;
    return {
      version: () => s.version(),
      root: () => s.root(),
      createChain: (genesis, head) =>
        Chain.create({ state: s, genesis, executor: null, ...(head === undefined ? {} : { head }) }),
      close: () => {},
    };
  };
  return { openState, stores };
}
