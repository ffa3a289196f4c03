/**
 * A DKG / resharing ceremony as a transport-independent state machine (docs/consensus.md
 * "Epoch transitions and resharing"), over the addon's Joint-Feldman DKG (docs/bls.md).
 *
 * Roles: a participant may be a dealer (it deals a fresh secret, or when resharing its share of
 * the previous output), a player (it receives a share of the new sharing), both, or neither
 * (an observer, which learns only the public output).
 *
 * Message flow (every sender is authenticated by the transport, which passes the sender's BLS
 * key to the `on*` methods):
 * 1. `start()`: a dealer broadcasts its public commitment (`broadcast`) and sends each player
 *    its private dealing (`sendDealing`, must be private and authenticated);
 * 2. a player, once it has both messages of a dealer (any order), verifies the dealing and
 *    returns a signed acknowledgement (`sendAck`); an invalid dealing is refused with a
 *    `DkgError` and no acknowledgement;
 * 3. `closeDealing()` (when every player acknowledged, or at the caller's deadline): the dealer
 *    signs its log (acknowledgements, and the dealings of the players that did not
 *    acknowledge, revealed publicly) and publishes it (`publishLog`);
 * 4. the logs are agreed (on chain; see logs.ts) and everyone calls `finalize(agreedLogs)`.
 *
 * Determinism: no clock and no random source. The dealing randomness and the
 * batch-verification randomness of `finalize` are derived from the participant's own secret key
 * and the ceremony number (`blsDkgDerivedRandomness`, purposes "deal" / "finalize"), so a dealer
 * restarted mid-ceremony deals the same polynomial again; an observer passes its own secret
 * 32 bytes. The output depends only on the agreed logs.
 *
 * Restarts (state is in memory): a restarted dealer calls `start()` again and sends identical
 * messages; players answer a repeated dealing with their acknowledgement again. A restarted
 * player is fed the dealers' messages again (from the transport's store or by asking the
 * dealers to resend) and acknowledges them again.
 */
import { loadNative } from "../bls-scheme.ts";
import { DkgError, DkgInfo, type DkgInfoConfig, native } from "./info.ts";
import { agreedLogs, type LogExclusion } from "./logs.ts";

type Native = typeof import("@cowboy/native");
type NativeDealer = InstanceType<Native["BlsDkgDealer"]>;
type NativePlayer = InstanceType<Native["BlsDkgPlayer"]>;

/** Where the ceremony sends its messages (the transport authenticates the sender). */
export interface DkgTransport {
  /** dealer → every player: the public commitment */
  broadcast(publicMessage: Uint8Array): void;
  /** dealer → one player, privately: its dealing */
  sendDealing(player: Buffer, privateMessage: Uint8Array): void;
  /** player → one dealer: the acknowledgement of its dealing */
  sendAck(dealer: Buffer, ack: Uint8Array): void;
  /** dealer → everyone (in production: a transaction putting the log on chain) */
  publishLog(log: Uint8Array): void;
  /**
   * Optional, a dealer that is also a player: my dealing to myself (the public commitment and
   * my private share of it), called before it is processed locally. It is the one dealing no
   * one sends me again, so a node that must derive its share after a restart without being able
   * to deal again (previous share lost) keeps it with the dealings it received and feeds it back
   * like theirs. Returns false if it could not be kept (e.g. not persisted): `start()` then
   * refuses to deal (`ERR_DKG_OWN_DEALING_NOT_KEPT`, nothing sent, my dealing never
   * acknowledged), since a dealing acknowledged but lost would leave me unable to derive my share.
   */
  keepOwnDealing?(publicMessage: Uint8Array, privateMessage: Uint8Array): boolean;
}

export interface DkgCeremonyConfig extends DkgInfoConfig {
  /** my 32-byte BLS secret key if I am a dealer and/or player; null/absent for an observer */
  readonly secretKey?: Uint8Array | null;
  /** my share of `previousOutput` (required when I deal in a resharing) */
  readonly previousShare?: Uint8Array | null;
  /** 32 secret bytes for observers' verification randomness (ignored when `secretKey` is set) */
  readonly observerRandomness?: Uint8Array | null;
  /**
   * false: never deal, even if my key is one of the dealers (a resharing dealer that lost its
   * previous share still takes part as a player; `isDealer` is then false). Default true.
   */
  readonly dealing?: boolean;
}

/** The result of a successful ceremony. */
export interface DkgResult {
  /** the public output: the next resharing's `previousOutput` */
  readonly output: Buffer;
  /** the group public polynomial: `BlsGroup` / `BlsSchemeConfig.group` bytes */
  readonly group: Buffer;
  /** the 48-byte group public key (unchanged by resharing) */
  readonly groupPublicKey: Buffer;
  /** partials needed to recover a threshold signature */
  readonly threshold: number;
  /** players in share-index order */
  readonly players: readonly Buffer[];
  /** dealers whose dealings were used */
  readonly dealers: readonly Buffer[];
  /** players whose shares were revealed publicly (treat them as compromised) */
  readonly revealed: readonly Buffer[];
  /** my share (`varint index ‖ scalar`), null for an observer */
  readonly share: Buffer | null;
  /** my share index (position in `players`), null for an observer */
  readonly shareIndex: number | null;
  /** agreed logs dropped by the agreement rule, with the reason */
  readonly excluded: readonly { readonly position: number; readonly reason: LogExclusion }[];
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

export class DkgCeremony {
  readonly info: DkgInfo;
  /** my 48-byte key, or null for an observer */
  readonly me: Buffer | null;
  readonly isDealer: boolean;
  readonly isPlayer: boolean;
  private readonly n: Native;
  private readonly transport: DkgTransport;
  private readonly secretKey: Buffer | null;
  private readonly previousShare: Buffer | null;
  private readonly observerRandomness: Buffer | null;
  private dealer: NativeDealer | null = null;
  private readonly player: NativePlayer | null;
  private started = false;
  private log: Buffer | null = null;
  private finished = false;
  /** dealer key hex → the public / private message received (player side) */
  private readonly publics = new Map<string, Buffer>();
  private readonly privates = new Map<string, Buffer>();
  /** dealers whose dealing I acknowledged, with the acknowledgement / refused (player side) */
  private readonly acked = new Map<string, Buffer>();
  private readonly refused = new Map<string, string>();
  /** players whose acknowledgement I recorded (dealer side) */
  private readonly acksIn = new Set<string>();

  constructor(cfg: DkgCeremonyConfig, transport: DkgTransport) {
    this.n = loadNative();
    this.info = new DkgInfo(cfg);
    this.transport = transport;
    this.secretKey = cfg.secretKey == null ? null : Buffer.from(cfg.secretKey);
    this.previousShare = cfg.previousShare == null ? null : Buffer.from(cfg.previousShare);
    this.observerRandomness = cfg.observerRandomness == null ? null : Buffer.from(cfg.observerRandomness);
    const sk = this.secretKey;
    this.me = sk === null ? null : native("secret key", () => this.n.blsPublicKey(sk));
    const listedDealer = this.me !== null && this.info.dealerIndex(this.me) >= 0;
    this.isDealer = listedDealer && cfg.dealing !== false;
    this.isPlayer = this.me !== null && this.info.playerIndex(this.me) >= 0;
    if (this.me !== null && !listedDealer && !this.isPlayer)
      throw new DkgError("ERR_DKG_NOT_PARTICIPANT", "the secret key is neither a dealer nor a player");
    if (this.me !== null && !this.isDealer && !this.isPlayer)
      throw new DkgError("ERR_DKG_NOT_PARTICIPANT", "a dealer that does not deal and is not a player");
    if (this.isDealer && this.info.previousOutput !== null && this.previousShare === null)
      throw new DkgError("ERR_DKG_MISSING_SHARE", "a resharing dealer needs its previous share");
    if (this.me === null && (this.observerRandomness === null || this.observerRandomness.length !== 32))
      throw new DkgError("ERR_DKG_RANDOMNESS", "an observer needs 32 bytes of observerRandomness");
    this.player =
      this.isPlayer && sk !== null
        ? native(
            "player",
            () =>
              new this.n.BlsDkgPlayer(
                this.info.chainId,
                this.info.round,
                this.info.previousOutput,
                [...this.info.dealers],
                [...this.info.players],
                sk,
              ),
          )
        : null;
  }

  private randomness(purpose: "deal" | "finalize"): Buffer {
    const sk = this.secretKey;
    if (sk === null) return this.observerRandomness as Buffer;
    return native("randomness", () =>
      this.n.blsDkgDerivedRandomness(sk, this.info.chainId, this.info.round, purpose),
    );
  }

  /**
   * Deals (dealers only; a no-op for others): broadcasts the commitment and sends every player
   * its dealing; my own dealing to myself is kept (`keepOwnDealing`) and processed locally.
   * Idempotent. Throws `DkgError` `ERR_DKG_OWN_DEALING_NOT_KEPT` (before sending anything) if
   * `keepOwnDealing` returns false: this ceremony then has no dealing of mine (`dealing` stays
   * false, further calls are no-ops, `closeDealing` refuses).
   */
  start(): void {
    if (!this.isDealer || this.started) return;
    this.started = true;
    const sk = this.secretKey as Buffer;
    const dealer = native(
      "dealer",
      () =>
        new this.n.BlsDkgDealer(
          this.info.chainId,
          this.info.round,
          this.info.previousOutput,
          [...this.info.dealers],
          [...this.info.players],
          sk,
          this.previousShare,
          this.randomness("deal"),
        ),
    );
    const me = this.me as Buffer;
    const pub = dealer.publicMessage;
    const privates = dealer.privateMessages();
    const own = privates.find((p) => p.player.equals(me));
    if (own !== undefined && this.transport.keepOwnDealing?.(pub, own.message) === false)
      throw new DkgError(
        "ERR_DKG_OWN_DEALING_NOT_KEPT",
        "my dealing to myself could not be kept: not dealing in this ceremony",
      );
    this.dealer = dealer;
    this.transport.broadcast(pub);
    for (const { player, message } of privates) {
      if (player.equals(me)) {
        this.onPublicMessage(me, pub);
        this.onDealing(me, message);
      } else {
        this.transport.sendDealing(player, message);
      }
    }
  }

  /** A dealer's public commitment arrived (player side). Throws `DkgError` for bad input. */
  onPublicMessage(dealer: Uint8Array, message: Uint8Array): void {
    this.receive(dealer, message, this.publics, "public message");
  }

  /** A dealer's private dealing for me arrived (player side). Throws `DkgError` for bad input. */
  onDealing(dealer: Uint8Array, message: Uint8Array): void {
    this.receive(dealer, message, this.privates, "dealing");
  }

  private receive(dealer: Uint8Array, message: Uint8Array, into: Map<string, Buffer>, what: string): void {
    if (this.player === null) throw new DkgError("ERR_DKG_NOT_PLAYER", `a ${what} for a non-player`);
    if (this.info.dealerIndex(dealer) < 0)
      throw new DkgError("ERR_DKG_UNKNOWN_DEALER", `a ${what} from a key that is not a dealer`);
    const key = hex(dealer);
    const prior = into.get(key);
    if (prior !== undefined) {
      if (prior.equals(message)) {
        // A repeated dealing: the dealer restarted (it deals the same polynomial again, see
        // the header) and lost my acknowledgement, so send it again.
        const ack = into === this.privates ? this.acked.get(key) : undefined;
        if (ack !== undefined) this.deliverAck(Buffer.from(dealer), ack);
        return;
      }
      throw new DkgError("ERR_DKG_CONFLICT", `a second, different ${what} from one dealer`);
    }
    into.set(key, Buffer.from(message));
    this.tryAck(Buffer.from(dealer));
  }

  private tryAck(dealer: Buffer): void {
    const key = hex(dealer);
    const pub = this.publics.get(key);
    const priv = this.privates.get(key);
    if (pub === undefined || priv === undefined || this.acked.has(key) || this.refused.has(key)) return;
    const player = this.player as NativePlayer;
    let ack: Buffer | null;
    try {
      ack = native("dealing", () => player.dealerMessage(dealer, pub, priv));
    } catch (e) {
      this.refused.set(key, (e as DkgError).code);
      throw e;
    }
    if (ack === null) return;
    this.acked.set(key, ack);
    this.deliverAck(dealer, ack);
  }

  private deliverAck(dealer: Buffer, ack: Buffer): void {
    if (this.me === null || !dealer.equals(this.me)) this.transport.sendAck(dealer, ack);
    // my own dealing fed back before `start()` (or without dealing): acknowledged as a player;
    // `start()` deals it again and records the acknowledgement then
    else if (this.dealer !== null && this.log === null) this.onAck(this.me, ack);
  }

  /** A player's acknowledgement of my dealing arrived (dealer side). Throws `DkgError` for bad input. */
  onAck(player: Uint8Array, ack: Uint8Array): void {
    const dealer = this.dealer;
    if (dealer === null || this.log !== null)
      throw new DkgError("ERR_DKG_NOT_DEALING", "an acknowledgement outside of dealing");
    if (this.info.playerIndex(player) < 0)
      throw new DkgError("ERR_DKG_UNKNOWN_PLAYER", "an acknowledgement from a key that is not a player");
    native("acknowledgement", () => dealer.receiveAck(Buffer.from(player), Buffer.from(ack)));
    this.acksIn.add(hex(player));
  }

  /** Dealer side: `start()` dealt (false before it, and after it refused to deal). */
  get dealing(): boolean {
    return this.dealer !== null;
  }

  /** Dealer side: every player has acknowledged (time to `closeDealing`). */
  get allAcked(): boolean {
    return this.dealer !== null && this.acksIn.size === this.info.players.length;
  }

  /** Dealer side: acknowledgements recorded so far. */
  get ackCount(): number {
    return this.acksIn.size;
  }

  /** Player side: dealers whose dealing I refused, with the error code. */
  get refusedDealers(): ReadonlyMap<string, string> {
    return this.refused;
  }

  /**
   * Dealer side: signs the log over the acknowledgements received (missing ones are revealed)
   * and publishes it; returns it. Further calls return the same log.
   */
  closeDealing(): Buffer {
    if (this.log !== null) return this.log;
    const dealer = this.dealer;
    if (dealer === null) throw new DkgError("ERR_DKG_NOT_DEALING", "not a started dealer");
    const log = native("dealer log", () => dealer.finalize());
    this.log = log;
    this.transport.publishLog(log);
    return log;
  }

  /**
   * Ends the ceremony with the agreed list of signed dealer logs (chain order; see logs.ts).
   * Throws `DkgError` (`ERR_DKG_INSUFFICIENT_LOGS` or the addon's `ERR_BLS_DKG`) if the
   * ceremony failed: the caller then keeps the previous group and retries with a new number.
   */
  finalize(logs: readonly Uint8Array[]): DkgResult {
    if (this.finished) throw new DkgError("ERR_DKG_FINISHED", "the ceremony was already finalized");
    const agreed = agreedLogs(this.info, logs);
    if (!agreed.enough)
      throw new DkgError(
        "ERR_DKG_INSUFFICIENT_LOGS",
        `${agreed.kept.length} usable dealer logs, ${this.info.required} needed`,
      );
    const bytes = agreed.kept.map((k) => Buffer.from(k.log));
    const player = this.player;
    const res =
      player !== null
        ? native("finalize", () => player.finalize(bytes, this.randomness("finalize")))
        : native("observe", () =>
            this.n.blsDkgObserve(
              this.info.chainId,
              this.info.round,
              this.info.previousOutput,
              [...this.info.dealers],
              [...this.info.players],
              bytes,
              this.randomness("finalize"),
            ),
          );
    this.finished = true;
    const out = native("output", () => this.n.blsDkgOutputInfo(res.output));
    return {
      output: res.output,
      group: res.group,
      groupPublicKey: out.groupPublicKey,
      threshold: out.threshold,
      players: out.players,
      dealers: out.dealers,
      revealed: out.revealed,
      share: res.share ?? null,
      shareIndex: this.isPlayer && this.me !== null ? this.info.playerIndex(this.me) : null,
      excluded: agreed.excluded,
    };
  }
}

/** The share index of `key` in a ceremony output's `players`, or -1. */
export function shareIndexOf(players: readonly Uint8Array[], key: Uint8Array): number {
  const k = hex(key);
  return players.findIndex((p) => hex(p) === k);
}
