/**
 * `wallet.submitDkgLog` (System sub-type 8, contract C4): the wallet signs and sends a `dkgLog`
 * transaction carrying the ceremony number and the dealer's log bytes unchanged, and the RPC
 * JSON shape of the instruction.
 */
import { describe, expect, it } from "vitest";
import { instructionJson } from "../../rpc/src/modules/json.ts";
import {
  createWalletClient,
  decodeTransaction,
  deriveSecretKey,
  fromHex,
  mnemonicToSeed,
  type Transport,
  verifyBytes,
} from "../src/index.ts";

const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const LIMITS = {
  cyclesLimit: 30_000n,
  cellsLimit: 1_000n,
  maxFeePerCycle: 20n,
  maxFeePerCell: 20n,
  maxPriorityFeePerCycle: 0n,
  maxPriorityFeePerCell: 0n,
};

function capture(sent: string[]): Transport {
  return {
    url: "capture://",
    close: async () => {},
    request: async (method, params) => {
      if (method === "cowboy_chainId") return "0x1e61";
      if (method === "cowboy_sendRawTransaction") {
        sent.push((params as string[])[0] as string);
        return `0x${"00".repeat(32)}`;
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

describe("wallet.submitDkgLog", () => {
  it("sends a signed dkgLog transaction with the ceremony and the log bytes", async () => {
    const sent: string[] = [];
    const wallet = createWalletClient({
      transport: capture(sent),
      secretKey: deriveSecretKey(mnemonicToSeed(MNEMONIC), "m/44'/60'/0'/0/0"),
    });
    const log = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
    const r = await wallet.submitDkgLog(5, log, { ...LIMITS, nonce: 3n });
    expect(sent).toHaveLength(1);
    const raw = fromHex(sent[0] as string);
    expect(raw).toEqual(r.raw);
    expect(verifyBytes(raw)).toBe(true);
    const tx = decodeTransaction(raw);
    expect(tx.instruction).toEqual({ kind: "dkgLog", ceremony: 5n, log });
    expect(tx.nonce).toBe(3n);
    expect(tx.chainId).toBe(7777n);
    // a bigint ceremony number works the same
    const again = await wallet.submitDkgLog(5n, log, { ...LIMITS, nonce: 3n });
    expect(again.raw).toEqual(r.raw);
    expect(instructionJson(tx.instruction)).toEqual({
      kind: "dkgLog",
      ceremony: "0x5",
      log: `0x${Buffer.from(log).toString("hex")}`,
    });
  });
});
