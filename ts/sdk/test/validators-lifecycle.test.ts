/**
 * The whole validator lifecycle through the SDK on a devnet with short epochs (5 blocks),
 * unbonding (40 blocks) and the default 10,000 CBY minimum stake: registered in epoch e, the
 * validator is in the set from epoch e+1 — e+2 when registered at or after the freeze point
 * F(e) = e·5 + 2 (docs/execution.md "Validator set") — (alone, so it holds all the stake and
 * earns the block rewards), exits, is out of the set from the next such epoch, cannot withdraw
 * before the unbonding ends, then withdraws its whole stake and its record is gone. A second
 * validator equivocates (two notarize votes for one view): anyone's `submitEvidence` slashes
 * 1 % of its stake and jails it for 40 blocks; unjailing fails until then and succeeds after,
 * and it is back in the set from the next epoch.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { encodeEvidence } from "@cowboy/consensus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bytesEqual,
  checkValidatorReceipt,
  createWalletClient,
  deriveSecretKey,
  mnemonicToSeed,
  ValidatorTxError,
  type WalletClient,
} from "../src/index.ts";
import { type ShortEpochDevnet, startShortEpochDevnet } from "./validator-devnet.ts";

const MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";
const CBY = 1_000_000_000n;
const EPOCH = 5n;
const UNBONDING = 40n;
/** poll receipts often: blocks are 50 ms */
const WAIT = { timeoutMs: 30_000, pollIntervalMs: 20 };
const JAIL = 40n;
/** The first epoch whose set a change made in block `h` reaches: the set of e+1 is frozen at F(e) = e·E + ⌊E/2⌋. */
const firstEpochAfter = (h: bigint): bigint => h / EPOCH + (h % EPOCH < EPOCH / 2n ? 1n : 2n);
const native = createRequire(import.meta.url)("@cowboy/native") as {
  blsKeygen(ikm: Buffer): Buffer;
  blsPublicKey(sk: Buffer): Buffer;
  blsProofOfPossession(sk: Buffer, chainId: bigint): Buffer;
  blsSign(sk: Buffer, domain: string, chainId: bigint, message: Buffer): Buffer;
  blsVoteMessage(block: Buffer, height: bigint, epoch: bigint, view: bigint): Buffer;
};

let devnet: ShortEpochDevnet;
let wallet: WalletClient;

beforeAll(async () => {
  devnet = await startShortEpochDevnet({
    epochBlocks: Number(EPOCH),
    unbondingBlocks: Number(UNBONDING),
    jailBlocks: Number(JAIL),
  });
  wallet = createWalletClient({
    transport: devnet.http,
    secretKey: deriveSecretKey(mnemonicToSeed(MNEMONIC), "m/44'/60'/0'/0/3"),
  });
}, 60_000);

afterAll(async () => {
  await devnet?.stop();
});

async function untilHeight(h: bigint): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await wallet.getBlockNumber()) < h) {
    if (Date.now() > deadline) throw new Error(`the devnet did not reach block ${h}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const inSet = (set: { validators: { address: Uint8Array }[] }) =>
  set.validators.some((m) => bytesEqual(m.address, wallet.address));

describe("validator lifecycle with short epochs", () => {
  it("joins the set at the next epoch, earns rewards, exits, unbonds and withdraws", async () => {
    const sk = native.blsKeygen(randomBytes(32));
    const blsKey = Uint8Array.from(native.blsPublicKey(sk));
    const proofOfPossession = Uint8Array.from(native.blsProofOfPossession(sk, await wallet.getChainId()));
    const stake = 15_000n * CBY;

    const reg = checkValidatorReceipt(
      await wallet.waitForTransactionReceipt(
        (await wallet.registerValidator({ blsKey, proofOfPossession, stake })).hash,
        WAIT,
      ),
    );
    const activation = firstEpochAfter(reg.blockNumber);
    expect((await wallet.getValidator(wallet.address))?.activationEpoch).toBe(activation);
    expect(inSet(await wallet.getValidators(reg.blockNumber / EPOCH))).toBe(false);

    // in the set from the first block of the activation epoch, alone with its whole stake
    await untilHeight(activation * EPOCH);
    const set = await wallet.getValidators(activation);
    expect(set.validators).toEqual([{ index: 0, address: wallet.address, blsKey, stake }]);
    expect(set.totalStake).toBe(stake);
    expect(inSet(await wallet.getValidators())).toBe(true);

    // the only member of the set earns the block rewards: its balance grows without a transaction
    const h = await wallet.getBlockNumber();
    const before = await wallet.getBalance(wallet.address, h);
    await untilHeight(h + 2n);
    expect(await wallet.getBalance(wallet.address, h + 2n)).toBeGreaterThan(before);

    const exit = checkValidatorReceipt(
      await wallet.waitForTransactionReceipt((await wallet.exitValidator()).hash, WAIT),
    );
    expect(await wallet.getValidator(wallet.address)).toMatchObject({
      status: "exiting",
      exitHeight: exit.blockNumber,
    });

    const early = await wallet.waitForTransactionReceipt((await wallet.withdrawStake()).hash, WAIT);
    expect(early.blockNumber).toBeLessThan(exit.blockNumber + UNBONDING);
    let caught: unknown;
    try {
      checkValidatorReceipt(early);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidatorTxError);
    expect((caught as ValidatorTxError).failure?.values.unbondsAt).toBe(exit.blockNumber + UNBONDING);

    // out of the set from the first epoch fixed after the exit
    const out = firstEpochAfter(exit.blockNumber);
    await untilHeight(out * EPOCH);
    expect(inSet(await wallet.getValidators(out))).toBe(false);

    await untilHeight(exit.blockNumber + UNBONDING);
    const balance = await wallet.getBalance(wallet.address);
    const w = checkValidatorReceipt(
      await wallet.waitForTransactionReceipt((await wallet.withdrawStake()).hash, WAIT),
    );
    expect(await wallet.getValidator(wallet.address)).toBeNull();
    // the stake came back (minus the fee; rewards may still arrive for blocks of its last epoch)
    const after = await wallet.getBalance(wallet.address, w.blockNumber);
    expect(after).toBeGreaterThanOrEqual(balance + stake - w.feePaid);
  }, 90_000);

  it("is slashed and jailed on evidence, refuses an early unjail, and unjails after the jail", async () => {
    const seed = mnemonicToSeed(MNEMONIC);
    const operator = createWalletClient({
      transport: devnet.http,
      secretKey: deriveSecretKey(seed, "m/44'/60'/0'/0/2"),
    });
    const reporter = createWalletClient({
      transport: devnet.http,
      secretKey: deriveSecretKey(seed, "m/44'/60'/0'/0/1"),
    });
    const chainId = await operator.getChainId();
    const sk = native.blsKeygen(randomBytes(32));
    const stake = 20_000n * CBY;
    const reg = checkValidatorReceipt(
      await operator.waitForTransactionReceipt(
        (
          await operator.registerValidator({
            blsKey: Uint8Array.from(native.blsPublicKey(sk)),
            proofOfPossession: Uint8Array.from(native.blsProofOfPossession(sk, chainId)),
            stake,
          })
        ).hash,
        WAIT,
      ),
    );
    const epoch = firstEpochAfter(reg.blockNumber);
    await untilHeight(epoch * EPOCH);
    const index = (await operator.getValidators(epoch)).validators.findIndex((m) =>
      bytesEqual(m.address, operator.address),
    );
    expect(index).toBeGreaterThanOrEqual(0);

    // two notarize votes of the same view for different blocks, signed with the validator's key
    const vote = (fill: number) => {
      const block = Buffer.alloc(32, fill);
      const message = native.blsVoteMessage(block, 3n, epoch, 9n);
      return {
        kind: "notarize" as const,
        height: 3,
        block: block.toString("hex"),
        signature: Uint8Array.from(native.blsSign(sk, "notarize", chainId, message)),
      };
    };
    const evidence = encodeEvidence({ epoch: Number(epoch), view: 9, signer: index, a: vote(1), b: vote(2) });
    const punished = checkValidatorReceipt(
      await reporter.waitForTransactionReceipt((await reporter.submitEvidence(evidence)).hash, WAIT),
    );
    const jailed = await operator.getValidator(operator.address);
    expect(jailed).toMatchObject({
      stake: stake - stake / 100n,
      slashed: stake / 100n,
      jailCount: 1,
      jailedUntil: punished.blockNumber + JAIL,
    });
    const again = await reporter.waitForTransactionReceipt(
      (await reporter.submitEvidence(evidence)).hash,
      WAIT,
    );
    expect(again.error).toMatch(/^ERR_VALIDATOR_DUPLICATE_EVIDENCE/);

    const early = await operator.waitForTransactionReceipt((await operator.unjailValidator()).hash, WAIT);
    expect(early.blockNumber).toBeLessThan(punished.blockNumber + JAIL);
    expect(() => checkValidatorReceipt(early)).toThrow(ValidatorTxError);
    expect(early.error).toMatch(/^ERR_VALIDATOR_STILL_JAILED/);

    // out of the set from the first epoch fixed after the jail began
    const out = firstEpochAfter(punished.blockNumber);
    await untilHeight(out * EPOCH);
    expect(
      (await operator.getValidators(out)).validators.some((m) => bytesEqual(m.address, operator.address)),
    ).toBe(false);

    await untilHeight(punished.blockNumber + JAIL);
    const freed = checkValidatorReceipt(
      await operator.waitForTransactionReceipt((await operator.unjailValidator()).hash, WAIT),
    );
    expect((await operator.getValidator(operator.address))?.jailedUntil).toBe(0n);
    const back = firstEpochAfter(freed.blockNumber);
    await untilHeight(back * EPOCH);
    const set = await operator.getValidators(back);
    expect(set.validators.find((m) => bytesEqual(m.address, operator.address))?.stake).toBe(
      stake - stake / 100n,
    );
  }, 90_000);
});
