import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_VALIDATORS } from "@cowboy/consensus";
import { afterAll, describe, expect, it } from "vitest";
import { deriveDevKeys } from "./devnet/accounts.ts";
import {
  DEFAULT_LOCALNET,
  LOCALNET_STAKE,
  localnetValidatorAddresses,
  parseLocalnetArgs,
  planLocalnet,
} from "./localnet.ts";
import { readValidatorConfig } from "./validator/config.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-localnet-plan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cowboy localnet options", () => {
  it("parses options and refuses bad ones", () => {
    expect(parseLocalnetArgs([])).toEqual({ ...DEFAULT_LOCALNET, reset: false });
    const o = parseLocalnetArgs(["--validators", "7", "--rpc-port", "0", "--block-time", "250", "--reset"]);
    expect(o).toMatchObject({ validators: 7, rpcPort: 0, blockTimeMs: 250, reset: true });
    expect(parseLocalnetArgs(["--help"])).toBe("help");
    expect(parseLocalnetArgs(["--epoch-blocks", "10"])).toMatchObject({ epochBlocks: 10 });
    expect(parseLocalnetArgs(["--no-dkg"])).toMatchObject({ dkg: false });
    expect(() => parseLocalnetArgs(["--validators", "0"])).toThrow(/--validators/);
    expect(() => parseLocalnetArgs(["--validators"])).toThrow(/--validators/);
    expect(() => parseLocalnetArgs(["--frobnicate"])).toThrow(/unknown option/);
  });

  it("plans a directory: one genesis, one key seed, one config per validator, stable across runs", async () => {
    const opts = { ...DEFAULT_LOCALNET, validators: 4, dir, basePort: 40_000, rpcPort: 9000 };
    const paths = await planLocalnet(opts, () => 1_234);
    expect(paths).toHaveLength(4);
    const cfgs = paths.map((p) => readValidatorConfig(p));
    expect(cfgs.map((c) => c.rpc.port)).toEqual([9000, 9001, 9002, 9003]);
    expect(cfgs.map((c) => c.signer.index)).toEqual([0, 1, 2, 3]);
    expect(cfgs[0]?.genesis.timestampMs).toBe(1_234n);
    expect(cfgs[2]?.genesis.accounts[0]?.address).toEqual(deriveDevKeys(1).accounts[0]?.address);
    expect(cfgs[1]?.validators.map((v) => v.address)).toEqual(localnetValidatorAddresses(4));
    // the genesis validator set (contract C2) comes from the network file
    expect(cfgs[1]?.genesis.validators?.map((v) => v.stake)).toEqual([
      LOCALNET_STAKE,
      LOCALNET_STAKE,
      LOCALNET_STAKE,
      LOCALNET_STAKE,
    ]);
    // operators are funded at genesis (they pay for evidence and staking transactions)
    const funded = cfgs[0]?.genesis.accounts.map((a) => Buffer.from(a.address).toString("hex")) ?? [];
    for (const a of localnetValidatorAddresses(4)) expect(funded).toContain(Buffer.from(a).toString("hex"));
    expect(new Set(cfgs.map((c) => Buffer.from(c.group).toString("hex"))).size).toBe(1);
    expect(new Set(cfgs.map((c) => Buffer.from(c.signer.secretKey).toString("hex"))).size).toBe(4);
    expect(cfgs[3]?.p2p.bootstrap).toHaveLength(3);
    expect(cfgs[3]?.dataDir).toBe(join(dir, "v3"));
    expect(cfgs[0]?.faults.equivocate).toBe(false);
    // a genesis DKG output (the default), the same for every validator; the re-plan is identical
    expect(cfgs[0]?.dkgOutput).not.toBeNull();
    expect(new Set(cfgs.map((c) => Buffer.from(c.dkgOutput ?? []).toString("hex"))).size).toBe(1);
    const files = () =>
      ["network.json", ...[0, 1, 2, 3].map((i) => `v${i}/validator.key`)].map((f) =>
        readFileSync(join(dir, f), "utf8"),
      );
    const before = files();
    expect(before[0]).toContain('"dkgOutput"');
    const again = await planLocalnet(opts, () => 9_999);
    expect(readFileSync(again[0] as string, "utf8")).toBe(readFileSync(paths[0] as string, "utf8"));
    expect(files()).toEqual(before);
    await expect(planLocalnet({ ...opts, validators: 5 })).rejects.toThrow(/4 validators/);
  });

  it("more validators than the default set cap: the network file raises the cap to hold them all", async () => {
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      validators: DEFAULT_MAX_VALIDATORS + 1,
      dir: join(dir, "large"),
      rpcPort: 0,
      dkg: false,
    });
    const cfg = readValidatorConfig(paths[0] as string);
    expect(cfg.genesis.validators).toHaveLength(DEFAULT_MAX_VALIDATORS + 1);
    expect(cfg.genesis.validatorParams?.maxValidators).toBe(DEFAULT_MAX_VALIDATORS + 1);
  });

  it("--no-dkg plans a dealer-dealt group without a DKG output", async () => {
    const plain = join(dir, "plain");
    const paths = await planLocalnet({
      ...DEFAULT_LOCALNET,
      validators: 4,
      dir: plain,
      rpcPort: 0,
      dkg: false,
    });
    const cfgs = paths.map((p) => readValidatorConfig(p));
    expect(cfgs.every((c) => c.dkgOutput === null && c.genesis.dkgOutput === undefined)).toBe(true);
    // the dealer's share i belongs to validator i
    expect(cfgs.map((c) => c.signer.share[0])).toEqual([0, 1, 2, 3]);
  });
});
