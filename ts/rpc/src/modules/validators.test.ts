import { describe, expect, it } from "vitest";
import { RpcDispatcher } from "../dispatcher.ts";
import type { ChainBackend, ValidatorSetView, ValidatorView } from "./backend.ts";
import { ValidatorsModule } from "./validators.ts";

const A = new Uint8Array(20).fill(0x11);
const B = new Uint8Array(20).fill(0x22);
const KEY = new Uint8Array(48).fill(0x77);
const RECORD: ValidatorView = {
  address: A,
  blsKey: KEY,
  stake: 297n,
  status: "exiting",
  registeredHeight: 0,
  activationEpoch: 0,
  exitHeight: 9,
  jailedUntil: 12,
  jailCount: 1,
  slashed: 3n,
  missed: 2,
};

/** The slice of a chain backend the validator methods read. */
function backend(withValidators: boolean): ChainBackend & { asked: (number | null)[] } {
  const asked: (number | null)[] = [];
  const b = {
    asked,
    head: () => ({ height: 12n, hash: new Uint8Array(32) }),
    ...(withValidators
      ? {
          validatorSet(epoch: number | null): ValidatorSetView {
            asked.push(epoch);
            const e = epoch ?? 3;
            return {
              epoch: e,
              members:
                e === 3
                  ? [
                      { address: A, blsKey: KEY, stake: 297n },
                      { address: B, blsKey: KEY, stake: 1_000n },
                    ]
                  : [],
            };
          },
          validator(address: Uint8Array) {
            return Buffer.from(address).equals(Buffer.from(A)) ? RECORD : null;
          },
        }
      : {}),
  };
  return b as unknown as ChainBackend & { asked: (number | null)[] };
}

const ctx = { transport: "http" as const, connection: null };
const req = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`;

describe("cowboy_getValidators / cowboy_getValidator", () => {
  it("answers the set in index order (default: the backend's next epoch) and records", async () => {
    const b = backend(true);
    const d = new RpcDispatcher([new ValidatorsModule(b)]);
    const set = (await d.handle(req("cowboy_getValidators", []), ctx)) as { result: unknown };
    expect(set.result).toEqual({
      epoch: "0x3",
      validators: [
        { index: 0, address: hex(A), blsKey: hex(KEY), stake: "0x129" },
        { index: 1, address: hex(B), blsKey: hex(KEY), stake: "0x3e8" },
      ],
    });
    const other = (await d.handle(req("cowboy_getValidators", ["0x5"]), ctx)) as { result: unknown };
    expect(other.result).toEqual({ epoch: "0x5", validators: [] });
    expect(b.asked).toEqual([null, 5]);
    const bad = (await d.handle(req("cowboy_getValidators", [5]), ctx)) as { error: { code: number } };
    expect(bad.error.code).toBe(-32602);
    const rec = (await d.handle(req("cowboy_getValidator", [hex(A)]), ctx)) as { result: unknown };
    expect(rec.result).toEqual({
      address: hex(A),
      blsKey: hex(KEY),
      stake: "0x129",
      status: "exiting",
      registeredHeight: "0x0",
      activationEpoch: "0x0",
      exitHeight: "0x9",
      jailedUntil: "0xc",
      jailCount: 1,
      slashed: "0x3",
      missed: 2,
    });
    const none = (await d.handle(req("cowboy_getValidator", [hex(B)]), ctx)) as { result: unknown };
    expect(none.result).toBeNull();
  });

  it("is not served by a backend without a validator set", () => {
    expect(Object.keys(new ValidatorsModule(backend(false)).methods())).toEqual([]);
    expect(Object.keys(new ValidatorsModule(backend(true)).methods()).sort()).toEqual([
      "cowboy_getValidator",
      "cowboy_getValidators",
    ]);
  });
});
