/**
 * `DevModule`: development-chain conveniences — the faucet (`cowboy_faucet`, rate-limited
 * per recipient) and the addresses of the prefunded development accounts.
 */

import { RpcError, RpcErrorCode } from "../errors.ts";
import { data, quantity } from "../format.ts";
import { method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import { RateLimiter } from "../rate-limit.ts";

export interface DevBackend {
  /** largest amount one faucet request may ask for, in base units */
  readonly faucetMax: bigint;
  /** amount sent when the request names none */
  readonly faucetDefault: bigint;
  /** sends `amount` to `address` from the faucet account; resolves to the transaction hash */
  faucet(address: Uint8Array, amount: bigint): Promise<Uint8Array>;
  devAccounts(): Array<{ address: Uint8Array; balance: bigint }>;
  /**
   * queues a runner result for a pending job, delivered in the next block as if verified;
   * returns the delivery transaction hash (`cowboy_deliverJobResult` is served only when present)
   */
  deliverJobResult?(
    jobId: Uint8Array,
    result: Uint8Array,
    opts: { runner?: Uint8Array; payment?: bigint },
  ): Uint8Array;
}

export interface DevModuleOptions {
  /** faucet requests per recipient: burst and refill per second */
  faucetBurst: number;
  faucetPerSecond: number;
}

export class DevModule implements RpcModule {
  private readonly backend: DevBackend;
  private readonly limiter: RateLimiter;

  constructor(backend: DevBackend, options: Partial<DevModuleOptions> = {}, now?: () => number) {
    this.backend = backend;
    this.limiter = new RateLimiter(
      { burst: options.faucetBurst ?? 5, perSecond: options.faucetPerSecond ?? 0.2, maxClients: 10_000 },
      now,
    );
  }

  methods() {
    const b = this.backend;
    return {
      cowboy_faucet: method(
        "send test coins to an address (rate-limited per recipient); returns the transaction hash",
        [p.address("address"), p.optional(p.quantity("amount"))],
        async ([address, amount]) => {
          const value = amount ?? b.faucetDefault;
          if (value === 0n || value > b.faucetMax) {
            throw RpcError.invalidParams(`invalid amount: expected 1 to ${b.faucetMax} base units`, {
              param: "amount",
            });
          }
          if (!this.limiter.take(data(address))) {
            throw new RpcError(
              RpcErrorCode.LIMIT_EXCEEDED,
              "faucet rate limit for this address exceeded; retry later",
            );
          }
          return data(await b.faucet(address, value));
        },
      ),
      cowboy_devAccounts: method("the prefunded development accounts and their balances", [], () =>
        b.devAccounts().map((a) => ({ address: data(a.address), balance: quantity(a.balance) })),
      ),
    };
  }
}
