/**
 * The validator's config file (JSON), as `cowboy localnet` writes it for each validator and
 * `node ts/node/src/validator/main.ts <file>` reads it. Byte strings are lowercase hex
 * without `0x`; the genesis lives in `<genesisDir>/genesis.json` (the devnet's format).
 */
import { readFileSync } from "node:fs";
import { readGenesisFile } from "../devnet/genesis-file.ts";
import type { ValidatorNodeConfig } from "./node.ts";

export interface ValidatorFileConfig {
  dataDir: string;
  index: number;
  genesisDir: string;
  validatorCount: number;
  keySeed: string;
  validatorAddresses: string[];
  p2p: { chainName: string; listen: string[]; bootstrap: string[]; peerIds: string[] };
  rpc: { host: string; port: number };
  timeouts?: {
    leaderTimeoutMs?: number;
    notarizationTimeoutMs?: number;
    nullifyRetryMs?: number;
    minViewMs?: number;
  };
  logLevel?: string;
}

export class ValidatorConfigError extends Error {
  readonly code = "ERR_VALIDATOR_CONFIG";
  constructor(message: string) {
    super(message);
    this.name = "ValidatorConfigError";
  }
}

const unhex = (s: unknown, what: string, len?: number): Uint8Array => {
  if (typeof s !== "string" || !/^([0-9a-f]{2})*$/.test(s) || (len !== undefined && s.length !== 2 * len))
    throw new ValidatorConfigError(`${what} must be ${len ?? "some"} bytes of lowercase hex`);
  return Uint8Array.from(Buffer.from(s, "hex"));
};

/** Reads and checks a config file; throws {@link ValidatorConfigError}. */
export function readValidatorConfig(path: string): {
  file: ValidatorFileConfig;
  config: Omit<ValidatorNodeConfig, "logger">;
} {
  let file: ValidatorFileConfig;
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as ValidatorFileConfig;
  } catch (err) {
    throw new ValidatorConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  const n = file.validatorCount;
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new ValidatorConfigError("validatorCount must be 1..=100");
  if (!Number.isInteger(file.index) || file.index < 0 || file.index >= n)
    throw new ValidatorConfigError(`index must be 0..${n - 1}`);
  if (!Array.isArray(file.validatorAddresses) || file.validatorAddresses.length !== n)
    throw new ValidatorConfigError("validatorAddresses must list one address per validator");
  if (!Array.isArray(file.p2p?.peerIds) || file.p2p.peerIds.length !== n)
    throw new ValidatorConfigError("p2p.peerIds must list one peer id per validator");
  const genesis = readGenesisFile(file.genesisDir);
  if (genesis === null) throw new ValidatorConfigError(`no genesis.json in ${file.genesisDir}`);
  return {
    file,
    config: {
      dataDir: file.dataDir,
      index: file.index,
      genesis,
      validatorCount: n,
      keySeed: unhex(file.keySeed, "keySeed", 32),
      validatorAddresses: file.validatorAddresses.map((a, i) => unhex(a, `validatorAddresses[${i}]`, 20)),
      p2p: file.p2p,
      rpc: file.rpc,
      ...(file.timeouts === undefined ? {} : { timeouts: file.timeouts }),
    },
  };
}
