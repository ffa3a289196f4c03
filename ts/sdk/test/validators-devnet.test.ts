/**
 * The validator lifecycle through the SDK against the real devnet (`cowboyd` as a child
 * process, default validator parameters: 10,000 CBY minimum stake, 3,600-block epochs,
 * 7-day unbonding): a registration below the minimum fails with the minimum in the error;
 * a real one (BLS key and proof of possession from the addon) is bonded with activation
 * epoch = the next epoch; exit starts unbonding; withdrawing before the unbonding ends and
 * unjailing an unjailed validator fail with typed errors naming what to do.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkValidatorReceipt,
  createPublicClient,
  createWalletClient,
  deriveSecretKey,
  mnemonicToSeed,
  ValidatorTxError,
  type WalletClient,
} from "../src/index.ts";
import { type Devnet, startDevnet } from "./devnet-process.ts";

const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const CBY = 1_000_000_000n;
const native = createRequire(import.meta.url)("@cowboy/native") as {
  blsKeygen(ikm: Buffer): Buffer;
  blsPublicKey(sk: Buffer): Buffer;
  blsProofOfPossession(sk: Buffer, chainId: bigint): Buffer;
};

let devnet: Devnet;
let wallet: WalletClient;

beforeAll(async () => {
  devnet = await startDevnet(["--block-time", "100"]);
  const key = deriveSecretKey(mnemonicToSeed(MNEMONIC), "m/44'/60'/0'/0/6");
  wallet = createWalletClient({ transport: devnet.http, secretKey: key });
}, 90_000);

afterAll(async () => {
  await devnet?.stop();
});

async function failure(p: Promise<{ hash: Uint8Array }>): Promise<ValidatorTxError> {
  const receipt = await wallet.waitForTransactionReceipt((await p).hash, { timeoutMs: 30_000 });
  try {
    checkValidatorReceipt(receipt);
  } catch (err) {
    if (err instanceof ValidatorTxError) return err;
    throw err;
  }
  throw new Error(`expected a failed receipt, got ${receipt.status}`);
}

describe("validator lifecycle on the devnet", () => {
  it("registers, shows the record and the set, exits, and refuses early withdraw and needless unjail", async () => {
    const reader = createPublicClient({ transport: devnet.http });
    expect(await reader.getValidator(wallet.address)).toBeNull();
    const genesisSet = await reader.getValidators(0);
    expect(genesisSet).toMatchObject({ epoch: 0n, validators: [], totalStake: 0n });

    const chainId = await wallet.getChainId();
    const sk = native.blsKeygen(randomBytes(32));
    const blsKey = Uint8Array.from(native.blsPublicKey(sk));
    const proofOfPossession = native.blsProofOfPossession(sk, chainId);

    const low = await failure(wallet.registerValidator({ blsKey, proofOfPossession, stake: 5n * CBY }));
    expect(low.errCode).toBe("ERR_VALIDATOR_STAKE_TOO_LOW");
    expect(low.failure?.values.minStake).toBe(10_000n * CBY);
    expect(low.message).toMatch(/stake at least the minimum 10000 CBY/);

    const wrongChain = native.blsProofOfPossession(sk, chainId + 1n);
    const badPop = await failure(
      wallet.registerValidator({ blsKey, proofOfPossession: wrongChain, stake: 10_000n * CBY }),
    );
    expect(badPop.errCode).toBe("ERR_VALIDATOR_BAD_PROOF_OF_POSSESSION");

    const before = await wallet.getBalance(wallet.address);
    const sent = await wallet.registerValidator({ blsKey, proofOfPossession, stake: 12_000n * CBY });
    const receipt = checkValidatorReceipt(
      await wallet.waitForTransactionReceipt(sent.hash, { timeoutMs: 30_000 }),
    );
    expect(await wallet.getBalance(wallet.address)).toBe(before - 12_000n * CBY - receipt.feePaid);

    const v = await reader.getValidator(wallet.address);
    expect(v).not.toBeNull();
    const epochBlocks = 3_600n;
    expect(v).toMatchObject({
      address: wallet.address,
      blsKey,
      stake: 12_000n * CBY,
      status: "bonded",
      registeredHeight: receipt.blockNumber,
      activationEpoch: receipt.blockNumber / epochBlocks + 1n,
      exitHeight: 0n,
      jailedUntil: 0n,
      slashed: 0n,
    });
    // not in the current epoch's set: it joins at the next epoch
    const current = await reader.getValidators(receipt.blockNumber / epochBlocks);
    expect(current.validators.some((m) => Buffer.from(m.address).equals(Buffer.from(wallet.address)))).toBe(
      false,
    );

    const again = await failure(
      wallet.registerValidator({ blsKey, proofOfPossession, stake: 10_000n * CBY }),
    );
    expect(again.errCode).toBe("ERR_VALIDATOR_ALREADY_REGISTERED");

    const unjail = await failure(wallet.unjailValidator());
    expect(unjail.errCode).toBe("ERR_VALIDATOR_NOT_JAILED");
    const early = await failure(wallet.withdrawStake());
    expect(early.errCode).toBe("ERR_VALIDATOR_NOT_EXITING");

    const exit = await wallet.waitForTransactionReceipt((await wallet.exitValidator()).hash, {
      timeoutMs: 30_000,
    });
    checkValidatorReceipt(exit);
    const exiting = await reader.getValidator(wallet.address);
    expect(exiting).toMatchObject({ status: "exiting", exitHeight: exit.blockNumber });

    const unbonding = await failure(wallet.withdrawStake());
    expect(unbonding.errCode).toBe("ERR_VALIDATOR_STILL_UNBONDING");
    expect(unbonding.failure?.values.unbondsAt).toBe(exit.blockNumber + 7n * 24n * 3_600n);
    expect(unbonding.message).toMatch(/then withdraw again/);

    const exitAgain = await failure(wallet.exitValidator());
    expect(exitAgain.errCode).toBe("ERR_VALIDATOR_NOT_BONDED");
  }, 120_000);

  it("refuses to exit an account that is not a validator", async () => {
    const other = createWalletClient({
      transport: devnet.http,
      secretKey: deriveSecretKey(mnemonicToSeed(MNEMONIC), "m/44'/60'/0'/0/7"),
    });
    const r = await other.waitForTransactionReceipt((await other.exitValidator()).hash, {
      timeoutMs: 30_000,
    });
    expect(() => checkValidatorReceipt(r)).toThrow(ValidatorTxError);
    expect(r.error).toMatch(/^ERR_VALIDATOR_UNKNOWN_VALIDATOR/);
  }, 60_000);
});
