/**
 * `cowboy_subscribe` / `cowboy_unsubscribe`, like Ethereum's `eth_subscribe`: a client on
 * a WebSocket subscribes to a topic (new heads, events, pending transactions) and
 * receives `cowboy_subscription` notifications `{subscription, result}` until it
 * unsubscribes or disconnects. The node publishes with {@link SubscriptionHub.publish}.
 */
import { RpcError, RpcErrorCode } from "./errors.ts";
import { method, type RequestContext, type RpcConnection, type RpcModule } from "./module.ts";
import { p } from "./params.ts";

export const SUBSCRIPTION_TOPICS = ["newHeads", "events", "pendingTransactions"] as const;
export type SubscriptionTopic = (typeof SUBSCRIPTION_TOPICS)[number];
/** Accepted topic names: the topics plus `logs`, Ethereum's name for `events`. */
const TOPIC_NAMES = [...SUBSCRIPTION_TOPICS, "logs"] as const;

interface Subscription {
  readonly id: string;
  readonly topic: SubscriptionTopic;
  readonly connection: RpcConnection;
  /** decides whether a published item goes to this subscriber; null = everything */
  readonly filter: ((item: unknown) => boolean) | null;
}

export interface SubscriptionHubOptions {
  /** most subscriptions one connection may hold */
  maxPerConnection: number;
  /** builds the filter of an `events` subscription from its raw filter argument */
  eventFilter?: (raw: unknown) => (item: unknown) => boolean;
}

export class SubscriptionHub implements RpcModule {
  private readonly subs = new Map<string, Subscription>();
  private readonly perConnection = new Map<number, Set<string>>();
  private nextId = 1n;
  private readonly options: SubscriptionHubOptions;

  constructor(options: Partial<SubscriptionHubOptions> = {}) {
    this.options = { maxPerConnection: 64, ...options };
  }

  get size(): number {
    return this.subs.size;
  }

  /** Delivers `item` to every subscriber of `topic` whose filter accepts it. */
  publish(topic: SubscriptionTopic, item: unknown): void {
    for (const sub of this.subs.values()) {
      if (sub.topic !== topic || (sub.filter !== null && !sub.filter(item))) continue;
      sub.connection.send({
        jsonrpc: "2.0",
        method: "cowboy_subscription",
        params: { subscription: sub.id, result: item },
      });
    }
  }

  methods() {
    return {
      cowboy_subscribe: method(
        "subscribe to newHeads, events (alias logs; with an optional filter) or pendingTransactions; WebSocket only",
        [p.oneOf("topic", TOPIC_NAMES), p.optional(p.json("filter", "an event filter object"))],
        ([topic, filter], ctx) => this.subscribe(topic === "logs" ? "events" : topic, filter, ctx),
      ),
      cowboy_unsubscribe: method("cancel a subscription", [p.quantity("subscription")], ([id], ctx) =>
        this.unsubscribe(`0x${id.toString(16)}`, ctx),
      ),
    };
  }

  private subscribe(topic: SubscriptionTopic, rawFilter: unknown, ctx: RequestContext): string {
    const connection = ctx.connection;
    if (connection === null) {
      throw new RpcError(RpcErrorCode.METHOD_NOT_FOUND, "subscriptions need a WebSocket connection");
    }
    let owned = this.perConnection.get(connection.id);
    if (owned === undefined) {
      owned = new Set();
      this.perConnection.set(connection.id, owned);
      connection.onClose(() => this.dropConnection(connection.id));
    }
    if (owned.size >= this.options.maxPerConnection) {
      throw new RpcError(
        RpcErrorCode.LIMIT_EXCEEDED,
        `a connection may hold at most ${this.options.maxPerConnection} subscriptions`,
      );
    }
    let filter: Subscription["filter"] = null;
    if (rawFilter !== undefined) {
      if (topic !== "events" || this.options.eventFilter === undefined) {
        throw RpcError.invalidParams(`the ${topic} subscription takes no filter`);
      }
      filter = this.options.eventFilter(rawFilter);
    }
    const id = `0x${(this.nextId++).toString(16)}`;
    this.subs.set(id, { id, topic, connection, filter });
    owned.add(id);
    return id;
  }

  private unsubscribe(id: string, ctx: RequestContext): boolean {
    const sub = this.subs.get(id);
    if (sub === undefined || ctx.connection === null || sub.connection.id !== ctx.connection.id) return false;
    this.subs.delete(id);
    this.perConnection.get(sub.connection.id)?.delete(id);
    return true;
  }

  private dropConnection(connectionId: number): void {
    for (const id of this.perConnection.get(connectionId) ?? []) this.subs.delete(id);
    this.perConnection.delete(connectionId);
  }
}
