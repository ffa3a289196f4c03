/**
 * A genesis threshold group from a real DKG run in-process (devnets, localnets, tests): every
 * genesis validator is a dealer and a player of a fresh Joint-Feldman ceremony (number 0, the
 * genesis ceremony), messages are delivered in memory, and every dealer's log is used. The
 * output is what `GenesisConfig.dkgOutput` takes; each validator's share is returned for its
 * node (`DkgDriver`'s `genesisShare`).
 *
 * Whoever runs it knows every secret key and so every share: this is a trusted set-up for
 * networks whose keys one operator generates (localnet, tests), not a production genesis.
 * Deterministic: the same keys and chain id always give the same output and shares.
 */
import { loadNative } from "../bls-scheme.ts";
import { DkgCeremony, type DkgTransport } from "./ceremony.ts";
import { DkgError, native } from "./info.ts";

/** The genesis group and every validator's share. */
export interface GenesisDkg {
  /** DKG output bytes (`GenesisConfig.dkgOutput`, the first resharing's previousOutput) */
  readonly output: Buffer;
  /** `BlsGroup` bytes */
  readonly group: Buffer;
  /** 48-byte group public key */
  readonly groupPublicKey: Buffer;
  readonly threshold: number;
  /** players (the validators' 48-byte keys) in share-index order (key-sorted) */
  readonly players: readonly Buffer[];
  /** per input secret key, in input order: its public key, share index and share */
  readonly shares: readonly { readonly publicKey: Buffer; readonly index: number; readonly share: Buffer }[];
}

/**
 * Runs ceremony 0 on `chainId` with `secretKeys` (32-byte BLS secret keys, at least one, no
 * duplicates) as dealers and players, and finalizes every player with all the logs. Throws
 * `DkgError` for an empty list, an invalid or a duplicated key.
 */
export function genesisDkg(secretKeys: readonly Uint8Array[], chainId: bigint): GenesisDkg {
  if (secretKeys.length === 0) throw new DkgError("ERR_DKG_NO_PLAYERS", "a genesis group needs a key");
  const n = loadNative();
  const keys = secretKeys.map((sk) => native("secret key", () => n.blsPublicKey(Buffer.from(sk))));
  if (new Set(keys.map((k) => k.toString("hex"))).size !== keys.length)
    throw new DkgError("ERR_DKG_DUPLICATE_KEY", "a key is listed twice");
  const inbox: (() => void)[] = [];
  const logs: Uint8Array[] = [];
  const nodes = new Map<string, DkgCeremony>();
  const at = (k: Uint8Array): DkgCeremony => nodes.get(Buffer.from(k).toString("hex")) as DkgCeremony;
  secretKeys.forEach((secretKey, i) => {
    const me = keys[i] as Buffer;
    const transport: DkgTransport = {
      broadcast: (m) => {
        for (const k of keys) if (!k.equals(me)) inbox.push(() => at(k).onPublicMessage(me, m));
      },
      sendDealing: (p, m) => inbox.push(() => at(p).onDealing(me, m)),
      sendAck: (d, a) => inbox.push(() => at(d).onAck(me, a)),
      publishLog: (l) => void logs.push(l),
    };
    nodes.set(
      me.toString("hex"),
      new DkgCeremony({ chainId, round: 0n, dealers: keys, players: keys, secretKey }, transport),
    );
  });
  for (const c of nodes.values()) c.start();
  for (let next = inbox.shift(); next !== undefined; next = inbox.shift()) next();
  for (const c of nodes.values()) c.closeDealing();
  const results = keys.map((k) => at(k).finalize(logs));
  const first = results[0] as (typeof results)[number];
  return {
    output: first.output,
    group: first.group,
    groupPublicKey: first.groupPublicKey,
    threshold: first.threshold,
    players: first.players,
    shares: results.map((r, i) => ({
      publicKey: keys[i] as Buffer,
      index: r.shareIndex as number,
      share: r.share as Buffer,
    })),
  };
}
