/**
 * Development accounts of the devnet: derived from a fixed, public BIP-39 mnemonic on
 * Cowboy's default path `m/44'/60'/0'/0/{i}`, prefunded at genesis. The same mnemonic
 * gives the same addresses on every machine, so scripts and tests can hard-code them.
 * NEVER use these keys for anything of value: the mnemonic is printed and published.
 *
 * Two more keys come from the same mnemonic on other account paths: the validator (block
 * proposer, receives tips and rewards) and the faucet (`cowboy_faucet` signs from it).
 */
import { addressFromSecretKey, deriveSecretKey, mnemonicToSeed } from "@cowboy/sdk";
import { UNITS_PER_CBY } from "../params.ts";

/** The public development mnemonic (from the entropy keccak256("cowboy devnet accounts")[0..16]). */
export const DEV_MNEMONIC =
  "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion";

/** Balance of each development account at genesis: 1,000,000 CBY. */
export const DEV_ACCOUNT_BALANCE = 1_000_000n * UNITS_PER_CBY;
/** Balance of the faucet account at genesis: 100,000,000 CBY. */
export const FAUCET_BALANCE = 100_000_000n * UNITS_PER_CBY;

export const VALIDATOR_PATH = "m/44'/60'/1'/0/0";
export const FAUCET_PATH = "m/44'/60'/2'/0/0";

export interface DevKey {
  path: string;
  address: Uint8Array;
  secretKey: Uint8Array;
}

export interface DevKeys {
  mnemonic: string;
  accounts: DevKey[];
  validator: DevKey;
  faucet: DevKey;
}

/** Derives `count` development accounts plus the validator and faucet keys (one seed computation). */
export function deriveDevKeys(count: number, mnemonic: string = DEV_MNEMONIC): DevKeys {
  if (!Number.isInteger(count) || count < 0 || count > 1000) {
    throw new RangeError(`development account count ${count} outside 0..=1000`);
  }
  const seed = mnemonicToSeed(mnemonic);
  const at = (path: string): DevKey => {
    const secretKey = deriveSecretKey(seed, path);
    return { path, secretKey, address: addressFromSecretKey(secretKey) };
  };
  const accounts: DevKey[] = [];
  for (let i = 0; i < count; i++) accounts.push(at(`m/44'/60'/0'/0/${i}`));
  const keys = { mnemonic, accounts, validator: at(VALIDATOR_PATH), faucet: at(FAUCET_PATH) };
  seed.fill(0);
  return keys;
}
