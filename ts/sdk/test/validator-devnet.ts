/**
 * An in-process devnet (`DevnetNode` over the qmdb state store, as `cowboyd` runs it) whose
 * genesis carries short validator-set parameters (epochs, unbonding, jail of a few blocks),
 * so that tests can watch a registered validator join the set, leave it and withdraw within
 * seconds. The real devnet keeps the defaults (3,600-block epochs, 7-day unbonding).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ValidatorParams } from "@cowboy/consensus";
import { openQmdbState } from "../../node/src/cowboyd.ts";
import { DEFAULT_DEVNET_CONFIG } from "../../node/src/devnet/config.ts";
import { DevnetNode, type OpenState } from "../../node/src/devnet/node.ts";

export interface ShortEpochDevnet {
  http: string;
  stop(): Promise<void>;
}

/** Starts the devnet with `params` in its genesis and `blockMs` blocks on a free port. */
export async function startShortEpochDevnet(
  params: Partial<ValidatorParams>,
  blockMs = 50,
): Promise<ShortEpochDevnet> {
  const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-devnet-"));
  const openState: OpenState = (d) => {
    const handle = openQmdbState(d);
    return {
      ...handle,
      createChain: (genesis, head) => handle.createChain({ ...genesis, validatorParams: params }, head),
    };
  };
  const node = await DevnetNode.open(
    {
      ...DEFAULT_DEVNET_CONFIG,
      dataDir: dir,
      rpcPort: 0,
      blockTime: { kind: "interval", ms: blockMs },
      logLevel: "silent",
    },
    { openState },
  );
  const { http } = await node.start();
  return {
    http,
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
