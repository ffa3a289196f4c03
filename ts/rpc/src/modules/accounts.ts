/**
 * `AccountsModule`: balances, nonces, actor code, actor storage and account records with
 * state proofs, and an actor's pending timers.
 */
import { data, quantity } from "../format.ts";
import { type MethodSpec, method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import type { ChainBackend } from "./backend.ts";
import { provenReadJson, timerJson } from "./json.ts";
import { LATEST, requireHeight } from "./tags.ts";

/** Longest actor storage key accepted (the state store's key limit is 1,024 bytes with its prefix). */
export const MAX_STORAGE_KEY = 512;

export class AccountsModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods() {
    const b = this.backend;
    const tag = p.optional(p.blockTag("block"), LATEST);
    return {
      cowboy_getBalance: method(
        "balance of an account or actor, in base units (1 CBY = 10^9)",
        [p.address("address"), tag],
        ([address, t]) => quantity(b.account(address, requireHeight(b, t)).balance),
      ),
      cowboy_getTransactionCount: method(
        'nonce of an account; with "pending", counting its transactions in the mempool',
        [p.address("address"), tag],
        ([address, t]) =>
          "tag" in t && t.tag === "pending"
            ? quantity(b.pendingNonce(address))
            : quantity(b.account(address, requireHeight(b, t)).nonce),
      ),
      cowboy_getCode: method(
        'canonical Python source of the actor at address as hex ("0x" if none)',
        [p.address("address"), tag],
        ([address, t]) => {
          const code = b.code(address, requireHeight(b, t));
          return code === null ? "0x" : data(code);
        },
      ),
      cowboy_getStorageAt: method(
        "a value of an actor's storage with its state proof (value null when absent)",
        [p.address("actor"), p.data("key", { maxLength: MAX_STORAGE_KEY }), tag],
        async ([actor, key, t]) => provenReadJson(await b.storage(actor, key, requireHeight(b, t))),
      ),
      cowboy_getProof: method(
        "the account record (balance, nonce) of an address with its state proof",
        [p.address("address"), tag],
        async ([address, t]) => {
          const height = requireHeight(b, t);
          const account = b.account(address, height);
          return {
            address: data(address),
            balance: quantity(account.balance),
            nonce: quantity(account.nonce),
            ...provenReadJson(await b.accountProof(address, height)),
          };
        },
      ),
      ...this.timerMethods(),
    };
  }

  /** `cowboy_getTimers`, when the backend can list timers. */
  private timerMethods(): Record<string, MethodSpec> {
    const b = this.backend;
    if (b.timers === undefined) return {};
    const timers = b.timers.bind(b);
    return {
      cowboy_getTimers: method(
        "pending timers of an actor, by fire height",
        [p.address("actor")],
        ([actor]) => timers(actor).map(timerJson),
      ),
    };
  }
}
