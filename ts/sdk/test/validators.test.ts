/**
 * The client's validator reads against the real `ValidatorsModule` of ts/rpc over HTTP
 * (a small backend holding a set and records), the parsers' shape checks, and the typed
 * receipt errors of the validator instructions with their fixes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RpcDispatcher,
  RpcServer,
  type ValidatorSetView,
  ValidatorsModule,
  type ValidatorView,
} from "../../rpc/src/index.ts";
import {
  checkValidatorReceipt,
  createPublicClient,
  createWalletClient,
  deriveSecretKey,
  fromHex,
  mnemonicToSeed,
  parseValidator,
  parseValidatorError,
  parseValidatorSet,
  ResponseShapeError,
  type RpcReceipt,
  type SentTransaction,
  type Transport,
  toHexRaw,
  ValidatorTxError,
  type WalletClient,
} from "../src/index.ts";

const A = new Uint8Array(20).fill(0x11);
const B = new Uint8Array(20).fill(0x22);
const KEY_A = new Uint8Array(48).fill(0x77);
const KEY_B = new Uint8Array(48).fill(0x78);
const RECORD: ValidatorView = {
  address: A,
  blsKey: KEY_A,
  stake: 10_000_000_000_000n,
  status: "exiting",
  registeredHeight: 4,
  activationEpoch: 1,
  exitHeight: 90,
  jailedUntil: 120,
  jailCount: 2,
  slashed: 100_000_000_000n,
  missed: 7,
};

let server: RpcServer;
let url: string;
const asked: Array<number | null> = [];

beforeAll(async () => {
  const backend = {
    head: () => ({ height: 12n, hash: new Uint8Array(32) }),
    validatorSet(epoch: number | null): ValidatorSetView {
      asked.push(epoch);
      const e = epoch ?? 2;
      return {
        epoch: e,
        members:
          e === 2
            ? [
                { address: A, blsKey: KEY_A, stake: 10_000_000_000_000n },
                { address: B, blsKey: KEY_B, stake: 25_000_000_000_000n },
              ]
            : [],
      };
    },
    validator: (address: Uint8Array) => (Buffer.from(address).equals(Buffer.from(A)) ? RECORD : null),
  };
  const dispatcher = new RpcDispatcher([new ValidatorsModule(backend as never)]);
  server = new RpcServer({ dispatcher }, { port: 0, rateLimit: { perSecond: 100_000, burst: 100_000 } });
  url = (await server.start()).http;
});

afterAll(async () => {
  await server.close();
});

describe("PublicClient.getValidators / getValidator", () => {
  it("reads the set in index order with the total stake; an epoch without a set is empty", async () => {
    const c = createPublicClient({ transport: url });
    const set = await c.getValidators();
    expect(set.epoch).toBe(2n);
    expect(set.validators).toEqual([
      { index: 0, address: A, blsKey: KEY_A, stake: 10_000_000_000_000n },
      { index: 1, address: B, blsKey: KEY_B, stake: 25_000_000_000_000n },
    ]);
    expect(set.totalStake).toBe(35_000_000_000_000n);
    const other = await c.getValidators(5);
    expect(other).toMatchObject({ epoch: 5n, validators: [], totalStake: 0n });
    expect((await c.getValidators(2n)).validators).toHaveLength(2);
    expect(asked).toEqual([null, 5, 2]);
  });

  it("reads a record with every field typed; null for an unknown address", async () => {
    const c = createPublicClient({ transport: url });
    const v = await c.getValidator(A);
    expect(v).not.toBeNull();
    const { raw, ...fields } = v as NonNullable<typeof v>;
    expect(fields).toEqual({
      address: A,
      blsKey: KEY_A,
      stake: 10_000_000_000_000n,
      status: "exiting",
      registeredHeight: 4n,
      activationEpoch: 1n,
      exitHeight: 90n,
      jailedUntil: 120n,
      jailCount: 2,
      slashed: 100_000_000_000n,
      missed: 7,
    });
    expect(raw.stake).toBe("0x9184e72a000");
    expect(await c.getValidator(B)).toBeNull();
  });
});

describe("parsers", () => {
  const good = {
    address: `0x${"11".repeat(20)}`,
    blsKey: `0x${"77".repeat(48)}`,
    stake: "0x1",
    status: "bonded",
    registeredHeight: "0x0",
    activationEpoch: "0x1",
    exitHeight: "0x0",
    jailedUntil: "0x0",
    jailCount: 0,
    slashed: "0x0",
    missed: 0,
  };

  it("name the offending field", () => {
    expect(parseValidator(good).status).toBe("bonded");
    expect(() => parseValidator({ ...good, status: "jailed" })).toThrow(/validator\.status/);
    expect(() => parseValidator({ ...good, blsKey: "0x77" })).toThrow(ResponseShapeError);
    expect(() => parseValidator({ ...good, stake: 5 })).toThrow(/validator\.stake/);
    expect(() => parseValidator({ ...good, missed: -1 })).toThrow(/validator\.missed/);
    expect(() => parseValidator({ ...good, jailCount: "0x0" })).toThrow(/validator\.jailCount/);
    const member = { index: 0, address: good.address, blsKey: good.blsKey, stake: "0x5" };
    expect(parseValidatorSet({ epoch: "0x0", validators: [member] }).totalStake).toBe(5n);
    expect(() => parseValidatorSet({ epoch: "0x0", validators: [{ ...member, index: 1 }] })).toThrow(
      /validators\.validators\[0\]\.index/,
    );
    expect(() => parseValidatorSet({ epoch: "0x0" })).toThrow(/validators\.validators/);
  });
});

describe("validator receipt errors", () => {
  it("carry the code, the numbers and the fix", () => {
    const low = parseValidatorError(
      "ERR_VALIDATOR_STAKE_TOO_LOW: stake 5 is below the minimum 10000000000000",
    );
    expect(low).toMatchObject({
      code: "STAKE_TOO_LOW",
      errCode: "ERR_VALIDATOR_STAKE_TOO_LOW",
      values: { stake: 5n, minStake: 10_000_000_000_000n },
    });
    expect(low?.fix).toBe("stake at least the minimum 10000 CBY (10000000000000 base units)");
    const unbonding = parseValidatorError("ERR_VALIDATOR_STILL_UNBONDING: ab unbonds at height 604805");
    expect(unbonding?.values).toEqual({ unbondsAt: 604_805n });
    expect(unbonding?.fix).toBe("wait until block 604805, then withdraw again");
    expect(parseValidatorError("ERR_VALIDATOR_STILL_JAILED: ab is jailed until height 77")?.values).toEqual({
      jailedUntil: 77n,
    });
    expect(parseValidatorError("ERR_VALIDATOR_BALANCE: balance 3 < stake 9")?.values).toEqual({
      balance: 3n,
      stake: 9n,
    });
    expect(parseValidatorError("ERR_VALIDATOR_NOT_JAILED: ab is not jailed")?.fix).toMatch(/nothing to do/);
    expect(parseValidatorError("ERR_EXEC_HANDLER: boom")).toBeNull();
    expect(parseValidatorError(null)).toBeNull();
  });

  it("checkValidatorReceipt throws a ValidatorTxError for a failed receipt", () => {
    const receipt = {
      transactionHash: new Uint8Array(32),
      status: "reverted",
      error: "ERR_VALIDATOR_NOT_EXITING: ab has not begun an exit",
    } as unknown as RpcReceipt;
    let caught: unknown;
    try {
      checkValidatorReceipt(receipt);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidatorTxError);
    expect((caught as ValidatorTxError).errCode).toBe("ERR_VALIDATOR_NOT_EXITING");
    expect((caught as Error).message).toBe(
      "ab has not begun an exit (exit first (exitValidator), then withdraw after the unbonding period)",
    );
    const ok = { ...receipt, status: "success", error: null } as RpcReceipt;
    expect(checkValidatorReceipt(ok)).toBe(ok);
    const other = { ...receipt, error: "ERR_OUT_OF_CYCLES: x" } as RpcReceipt;
    expect(() => checkValidatorReceipt(other)).toThrow(/failed: ERR_OUT_OF_CYCLES/);
  });
});

describe("WalletClient validator methods", () => {
  const vectors = JSON.parse(
    readFileSync(
      join(import.meta.dirname, "..", "..", "..", "python", "tests", "vectors", "client-signing.json"),
      "utf8",
    ),
  ) as {
    mnemonic: string;
    chainId: string;
    limits: Record<string, string>;
    cases: Array<{
      name: string;
      path: string;
      nonce: number;
      instruction: Record<string, string>;
      signedHex: string;
    }>;
  };
  const seed = mnemonicToSeed(vectors.mnemonic);
  const overrides = Object.fromEntries(Object.entries(vectors.limits).map(([k, v]) => [k, BigInt(v)]));
  const send: Record<
    string,
    (w: WalletClient, i: Record<string, string>, o: object) => Promise<SentTransaction>
  > = {
    registerValidator: (w, i, o) =>
      w.registerValidator(
        {
          blsKey: fromHex(i.blsKey as string),
          proofOfPossession: fromHex(i.proofOfPossession as string),
          stake: BigInt(i.stake as string),
        },
        o,
      ),
    exitValidator: (w, _i, o) => w.exitValidator(o),
    withdrawStake: (w, _i, o) => w.withdrawStake(o),
    unjailValidator: (w, _i, o) => w.unjailValidator(o),
    submitEvidence: (w, i, o) => w.submitEvidence(fromHex(i.evidence as string), o),
  };

  it("send the shared vectors' signed bytes (the ones cowboy-py sends)", async () => {
    const cases = vectors.cases.filter((c) => (c.instruction.kind as string) in send);
    expect(cases.map((c) => c.instruction.kind)).toEqual([
      "registerValidator",
      "exitValidator",
      "withdrawStake",
      "unjailValidator",
      "submitEvidence",
    ]);
    for (const c of cases) {
      const sent: string[] = [];
      const transport: Transport = {
        url: "capture://",
        close: async () => {},
        request: async (method, params) => {
          if (method === "cowboy_chainId") return `0x${BigInt(vectors.chainId).toString(16)}`;
          if (method === "cowboy_sendRawTransaction") {
            sent.push((params as string[])[0] as string);
            return `0x${"00".repeat(32)}`;
          }
          throw new Error(`unexpected ${method}`);
        },
      };
      const w = createWalletClient({ transport, secretKey: deriveSecretKey(seed, c.path) });
      const fn = send[c.instruction.kind as string] as (typeof send)[string];
      const r = await fn(w, c.instruction, { ...overrides, nonce: BigInt(c.nonce) });
      expect(toHexRaw(r.raw), c.name).toBe(c.signedHex);
      expect(sent, c.name).toEqual([`0x${c.signedHex}`]);
    }
  });
});
