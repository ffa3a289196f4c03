import { describe, expect, it } from "vitest";
import { Chain } from "../stf/chain.ts";
import { MemoryState } from "../stf/memory-state.ts";

// The tx gossip frame (gossip.ts) tells a batch from one transaction by a first byte 0x00, which
// no transaction's encoding (it starts with its chain id) may have: no chain has id 0.
describe("chain id 0", () => {
  const genesis = (chainId: bigint) => ({ chainId, timestampMs: 0n, accounts: [] });

  it("is refused at genesis with a typed error", () => {
    expect(() => Chain.create({ state: new MemoryState(), genesis: genesis(0n) })).toThrow(
      expect.objectContaining({ code: "ERR_CHAIN_GENESIS" }),
    );
    expect(() => Chain.create({ state: new MemoryState(), genesis: genesis(0x1_0000_0000n) })).toThrow(
      expect.objectContaining({ code: "ERR_CHAIN_GENESIS" }),
    );
  });

  it("1 and u32::MAX are fine", () => {
    expect(Chain.create({ state: new MemoryState(), genesis: genesis(1n) }).chainId).toBe(1n);
    expect(Chain.create({ state: new MemoryState(), genesis: genesis(0xffff_ffffn) }).chainId).toBe(
      0xffff_ffffn,
    );
  });
});
