/**
 * `genesis.json` in the data directory: the genesis configuration of the chain stored
 * there, written once when the chain is created (atomically: temp file, fsync, rename) and
 * read on every later start, so a restart re-creates exactly the same genesis even when
 * the command-line options changed.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fromHex, toHex } from "@cowboy/sdk";
import type { GenesisConfig } from "../stf/types.ts";

export const GENESIS_FILE = "genesis.json";

export class GenesisFileError extends Error {
  readonly code = "ERR_DEVNET_GENESIS_FILE";
}

function toText(g: GenesisConfig): string {
  return `${JSON.stringify(
    {
      chainId: g.chainId.toString(),
      timestampMs: g.timestampMs.toString(),
      accounts: g.accounts.map((a) => ({ address: toHex(a.address), balance: a.balance.toString() })),
    },
    null,
    2,
  )}\n`;
}

function fromText(text: string, path: string): GenesisConfig {
  const bad = (why: string) => new GenesisFileError(`${path}: ${why}`);
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    throw bad("not valid JSON");
  }
  const rec = o as { chainId?: unknown; timestampMs?: unknown; accounts?: unknown };
  const dec = (v: unknown, what: string) => {
    if (typeof v !== "string" || !/^(0|[1-9][0-9]*)$/.test(v)) throw bad(`${what} must be a decimal string`);
    return BigInt(v);
  };
  if (!Array.isArray(rec.accounts)) throw bad("accounts must be an array");
  return {
    chainId: dec(rec.chainId, "chainId"),
    timestampMs: dec(rec.timestampMs, "timestampMs"),
    accounts: rec.accounts.map((a: { address?: unknown; balance?: unknown }, i: number) => {
      if (typeof a.address !== "string") throw bad(`accounts[${i}].address must be hex`);
      const address = fromHex(a.address);
      if (address.length !== 20) throw bad(`accounts[${i}].address must be 20 bytes`);
      return { address, balance: dec(a.balance, `accounts[${i}].balance`) };
    }),
  };
}

/** The stored genesis of `dir`, or null if none was written yet. */
export function readGenesisFile(dir: string): GenesisConfig | null {
  const path = join(dir, GENESIS_FILE);
  if (!existsSync(path)) return null;
  return fromText(readFileSync(path, "utf8"), path);
}

/** Writes `genesis` durably into `dir`. */
export function writeGenesisFile(dir: string, genesis: GenesisConfig): void {
  const path = join(dir, GENESIS_FILE);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, toText(genesis));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dfd = openSync(dir, "r");
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}
