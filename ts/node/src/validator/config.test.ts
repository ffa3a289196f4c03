/**
 * The validator config files (`cowboyd --config FILE`): a generated localnet config reads back;
 * every kind of mistake is a ValidatorConfigError naming the file and the field; the key file
 * must belong to the validator it claims; `cowboyd --config` exits 2 with that error.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadNative } from "@cowboy/consensus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validatorConfigArg } from "../cowboyd.ts";
import { COWBOYD, DEFAULT_LOCALNET, parseLocalnetArgs, planLocalnet } from "../localnet.ts";
import {
  dkgEpochBlocksProblem,
  MIN_DKG_EPOCH_BLOCKS,
  readValidatorConfig,
  ValidatorConfigError,
} from "./config.ts";

const dir = mkdtempSync(join(tmpdir(), "cowboy-validator-config-"));
let paths: string[] = [];
const native = loadNative();
const blsPk = (sk: Uint8Array) => native.blsPublicKey(Buffer.from(sk));

beforeAll(async () => {
  paths = await planLocalnet({ ...DEFAULT_LOCALNET, validators: 4, dir, basePort: 41_000, rpcPort: 0 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, unknown>;
const read = (p: string) => JSON.parse(readFileSync(p, "utf8")) as Json;

/** Writes a modified copy of validator 1's config (and optionally network / key files) and reads it. */
function variant(edit: {
  config?: (c: Json) => void;
  network?: (n: Json) => void;
  key?: (k: Json) => void;
}): () => unknown {
  const vdir = join(dir, "v1");
  const c = read(paths[1] as string);
  if (edit.network !== undefined) {
    const n = read(join(dir, "network.json"));
    edit.network(n);
    writeFileSync(join(vdir, "network.variant.json"), JSON.stringify(n));
    c.networkFile = "network.variant.json";
  }
  if (edit.key !== undefined) {
    const k = read(join(vdir, "validator.key"));
    edit.key(k);
    writeFileSync(join(vdir, "key.variant.json"), JSON.stringify(k));
    c.keyFile = "key.variant.json";
  }
  edit.config?.(c);
  const path = join(vdir, "config.variant.json");
  writeFileSync(path, JSON.stringify(c));
  return () => readValidatorConfig(path, blsPk);
}

function fieldOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidatorConfigError);
    return (err as ValidatorConfigError).field;
  }
  throw new Error("no error");
}

describe("validator config files", () => {
  it("a generated config reads back with its keys checked", () => {
    const s = readValidatorConfig(paths[2] as string, blsPk);
    expect(s.signer.index).toBe(2);
    expect(s.validators).toHaveLength(4);
    expect(s.chainName).toBe("cowboy-localnet-7778");
    expect(s.timeouts).toEqual({
      leaderTimeoutMs: 1_000,
      notarizationTimeoutMs: 2_000,
      nullifyRetryMs: 2_000,
      minViewMs: 1_000,
    });
    expect(s.metrics).toBe(true);
    expect(s.genesis.chainId).toBe(7778n);
    // the localnet's genesis group comes from a DKG: its output is in the genesis, and the key
    // file's share carries the key's position among the key-sorted validators' keys
    expect(s.dkgOutput).not.toBeNull();
    expect(s.genesis.dkgOutput).toEqual(s.dkgOutput);
    const sorted = s.validators.map((v) => Buffer.from(v.blsPublicKey).toString("hex")).sort();
    const mine = Buffer.from((s.validators[2] as { blsPublicKey: Uint8Array }).blsPublicKey).toString("hex");
    expect(read(join(dir, "v2", "validator.key")).shareIndex).toBe(sorted.indexOf(mine));
    expect(s.signer.share[0]).toBe(sorted.indexOf(mine));
  });

  it("checks the DKG fields: dkgOutput hex, shareIndex matching the share", () => {
    expect(fieldOf(variant({ network: (n) => (n.dkgOutput = "0x") }))).toBe("dkgOutput");
    expect(fieldOf(variant({ network: (n) => (n.dkgOutput = "zz") }))).toBe("dkgOutput");
    expect(fieldOf(variant({ key: (k) => (k.shareIndex = ((k.shareIndex as number) + 1) % 4) }))).toBe(
      "shareIndex",
    );
    expect(fieldOf(variant({ key: (k) => (k.shareIndex = -1) }))).toBe("shareIndex");
    // without a dkgOutput (a dealer-dealt network) the genesis has none
    const plain = variant({ network: (n) => delete n.dkgOutput })() as { dkgOutput: unknown; genesis: Json };
    expect(plain.dkgOutput).toBeNull();
    expect(plain.genesis.dkgOutput).toBeUndefined();
  });

  it("names the bad field", () => {
    expect(fieldOf(variant({ config: (c) => delete c.dataDir }))).toBe("dataDir");
    expect(fieldOf(variant({ config: (c) => (c.version = 2) }))).toBe("version");
    expect(fieldOf(variant({ config: (c) => (c.chainId = "7") }))).toBe("chainId");
    expect(fieldOf(variant({ config: (c) => (c.rpc = { host: "127.0.0.1", port: 70_000 }) }))).toBe(
      "rpc.port",
    );
    expect(
      fieldOf(variant({ config: (c) => (c.p2p = { listen: ["/ip4/1.2.3.4/udp/x"], bootstrap: [] }) })),
    ).toBe("p2p.listen[0]");
    expect(
      fieldOf(
        variant({
          config: (c) =>
            (c.p2p = { listen: ["/ip4/0.0.0.0/udp/1/quic-v1"], bootstrap: ["/ip4/1.2.3.4/tcp/5"] }),
        }),
      ),
    ).toBe("p2p.bootstrap[0]");
    expect(fieldOf(variant({ config: (c) => (c.timeouts = { leaderMs: 500, notarizationMs: 100 }) }))).toBe(
      "timeouts.notarizationMs",
    );
    expect(fieldOf(variant({ config: (c) => (c.timeouts = { leaderMS: 5 }) }))).toBe("timeouts.leaderMS");
    expect(fieldOf(variant({ config: (c) => (c.faults = { equivocate: "yes" }) }))).toBe("faults.equivocate");
    expect(fieldOf(variant({ config: (c) => (c.logLevel = "loud") }))).toBe("logLevel");
    expect(fieldOf(variant({ config: (c) => (c.genesisFile = "../nothing/genesis.json") }))).toBe(
      "genesisFile",
    );
    expect(fieldOf(variant({ config: (c) => (c.rpcPort = 1) }))).toBe("rpcPort");
    expect(
      fieldOf(variant({ network: (n) => (((n.validators as Json[])[2] as Json).peerId = "not-a-peer") })),
    ).toBe("validators[2].peerId");
    expect(
      fieldOf(variant({ network: (n) => (((n.validators as Json[])[0] as Json).blsPublicKey = "0x00") })),
    ).toBe("validators[0].blsPublicKey");
    expect(
      fieldOf(
        variant({
          network: (n) => {
            const vs = n.validators as Json[];
            (vs[3] as Json).peerId = (vs[0] as Json).peerId;
          },
        }),
      ),
    ).toBe("validators[3].peerId");
    expect(
      fieldOf(
        variant({
          network: (n) => {
            const vs = n.validators as Json[];
            [vs[0], vs[1]] = [vs[1] as Json, vs[0] as Json];
          },
        }),
      ),
    ).toBe("validators[1].address"); // not in the chain's (address) order
    expect(fieldOf(variant({ key: (k) => (k.index = 9) }))).toBe("index");
    // every listed validator must fit the genesis set (4 listed here)
    expect(fieldOf(variant({ network: (n) => (n.params = { maxValidators: 3 }) }))).toBe(
      "params.maxValidators",
    );
    expect(fieldOf(variant({ network: (n) => (n.params = { maxValidators: 0 }) }))).toBe(
      "params.maxValidators",
    );
  });

  it("refuses epochs too short for a resharing ceremony on a chain with a DKG output", () => {
    expect(MIN_DKG_EPOCH_BLOCKS).toBe(7);
    // the generated network file has a dkgOutput
    for (const epochBlocks of [1, 3, 4, 6])
      expect(fieldOf(variant({ network: (n) => (n.params = { epochBlocks }) })), `E = ${epochBlocks}`).toBe(
        "params.epochBlocks",
      );
    let err: unknown = null;
    try {
      variant({ network: (n) => (n.params = { epochBlocks: 6 }) })();
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "ERR_VALIDATOR_CONFIG", field: "params.epochBlocks" });
    expect((err as Error).message).toMatch(/at least 7/);
    for (const epochBlocks of [7, 8, 12])
      expect(
        (
          variant({ network: (n) => (n.params = { epochBlocks }) })() as {
            genesis: { validatorParams?: { epochBlocks?: number } };
          }
        ).genesis.validatorParams?.epochBlocks,
      ).toBe(epochBlocks);
    // without a DKG output there is no resharing: any epoch length
    expect(dkgEpochBlocksProblem(6)).toMatch(/at least 7/);
    expect(dkgEpochBlocksProblem(7)).toBeNull();
    // cowboy localnet --epoch-blocks: the same bound with a DKG (the default), none with --no-dkg
    expect(() => parseLocalnetArgs(["--epoch-blocks", "6"])).toThrow(/--epoch-blocks must be at least 7/);
    expect(parseLocalnetArgs(["--epoch-blocks", "7"])).toMatchObject({ epochBlocks: 7 });
    expect(parseLocalnetArgs(["--epoch-blocks", "3", "--no-dkg"])).toMatchObject({
      epochBlocks: 3,
      dkg: false,
    });
  });

  it("refuses a key file that is not the validator's", () => {
    // validator 1's config with validator 2's BLS key: the public key does not match the set
    const other = read(join(dir, "v2", "validator.key"));
    expect(fieldOf(variant({ key: (k) => (k.blsSecretKey = other.blsSecretKey) }))).toBe("blsSecretKey");
    expect(fieldOf(variant({ key: (k) => (k.operatorSecretKey = other.operatorSecretKey) }))).toBe(
      "operatorSecretKey",
    );
  });

  it("a key file without index: looked up by key; a key not in the network file joins (follower)", () => {
    // validator 1's own key file without index / share: found by its BLS key
    const found = variant({
      key: (k) => {
        delete k.index;
      },
    })() as { identity: { networkIndex: number | null }; signer: { index: number } };
    expect(found.identity.networkIndex).toBe(1);
    expect(found.signer.index).toBe(1);
    // a fresh key (as `cowboy validator keygen` writes it): a joining validator
    const sk = Uint8Array.from(native.blsKeygen(Buffer.alloc(32, 7)));
    const op = `0x${"11".repeat(32)}`;
    const joining = variant({
      key: (k) => {
        for (const f of ["index", "blsShare", "shareIndex"]) delete k[f];
        k.blsSecretKey = `0x${Buffer.from(sk).toString("hex")}`;
        k.operatorSecretKey = op;
      },
    })() as {
      identity: { networkIndex: number | null; blsPublicKey: Uint8Array; address: Uint8Array };
      signer: { index: number; share: Uint8Array };
    };
    expect(joining.identity.networkIndex).toBeNull();
    expect(Buffer.from(joining.identity.blsPublicKey)).toEqual(Buffer.from(blsPk(sk)));
    expect(joining.signer.index).toBe(-1);
    expect(joining.signer.share).toHaveLength(0);
    // clearly wrong: the operator of validator 2 with another BLS key, validator 2's BLS key
    // with another operator, a genesis share for a key the network does not list
    const v2 = read(join(dir, "v2", "validator.key"));
    const noIndex = (edit: (k: Json) => void) =>
      variant({
        key: (k) => {
          for (const f of ["index", "blsShare", "shareIndex"]) delete k[f];
          k.blsSecretKey = `0x${Buffer.from(sk).toString("hex")}`;
          k.operatorSecretKey = op;
          edit(k);
        },
      });
    expect(fieldOf(noIndex((k) => (k.operatorSecretKey = v2.operatorSecretKey)))).toBe("blsSecretKey");
    expect(fieldOf(noIndex((k) => (k.blsSecretKey = v2.blsSecretKey)))).toBe("operatorSecretKey");
    expect(fieldOf(noIndex((k) => (k.blsShare = v2.blsShare)))).toBe("blsShare");
    // with an index the share is required, and shareIndex needs a share
    expect(
      fieldOf(
        variant({
          key: (k) => {
            delete k.blsShare;
            delete k.shareIndex;
          },
        }),
      ),
    ).toBe("blsShare");
    expect(fieldOf(variant({ key: (k) => delete k.blsShare }))).toBe("shareIndex");
    // without a way to derive the public key, a key file must say its index
    const c = read(paths[1] as string);
    const k = read(join(dir, "v1", "validator.key"));
    delete k.index;
    writeFileSync(join(dir, "v1", "key.noindex.json"), JSON.stringify(k));
    c.keyFile = "key.noindex.json";
    writeFileSync(join(dir, "v1", "config.noindex.json"), JSON.stringify(c));
    expect(fieldOf(() => readValidatorConfig(join(dir, "v1", "config.noindex.json")))).toBe("index");
  });

  it("cowboyd --config: argument form, and a bad file exits 2 naming the field", () => {
    expect(validatorConfigArg(["--rpc-port", "1"])).toBeNull();
    expect(validatorConfigArg(["--config", "a.json"])).toBe("a.json");
    expect(validatorConfigArg(["--config=b.json"])).toBe("b.json");
    expect(validatorConfigArg(["--config"])).toBeInstanceOf(Error);
    expect(validatorConfigArg(["--config", "a.json", "--rpc-port", "1"])).toBeInstanceOf(Error);
    variant({ config: (c) => (c.rpc = { host: "127.0.0.1", port: -1 }) });
    const r = spawnSync(process.execPath, [COWBOYD, "--config", join(dir, "v1", "config.variant.json")], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/ERR_VALIDATOR_CONFIG: .*config\.variant\.json: rpc\.port: must be an integer/);
  });
});
