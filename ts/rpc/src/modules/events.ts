/**
 * `EventsModule`: events (actor logs) by filter — `cowboy_getLogs` — and the filter of
 * `events`/`logs` subscriptions. A filter names emitters (`address`: one or up to 32)
 * and optionally topics (any of up to 16 match) and a block range.
 */
import { RpcError, RpcErrorCode } from "../errors.ts";
import { data } from "../format.ts";
import { method, type RpcModule } from "../module.ts";
import { type BlockTag, p } from "../params.ts";
import type { ChainBackend } from "./backend.ts";
import { eventViewJson } from "./json.ts";
import { heightOf } from "./tags.ts";

export const MAX_FILTER_ADDRESSES = 32;
export const MAX_FILTER_TOPICS = 16;
/** Longest block range one `cowboy_getLogs` call scans. */
export const MAX_LOG_RANGE = 10_000n;
/** Most events one `cowboy_getLogs` call returns. */
export const MAX_LOG_RESULTS = 10_000;

const topic = p.data("topics", { maxLength: 256 });

const filterFields = {
  fromBlock: p.optional(p.blockTag("fromBlock")),
  toBlock: p.optional(p.blockTag("toBlock")),
  address: p.optional(p.oneOrMany(p.address("address"), MAX_FILTER_ADDRESSES)),
  topics: p.optional(p.oneOrMany(topic, MAX_FILTER_TOPICS)),
};

/** A parsed event filter. */
export interface EventFilter {
  fromBlock: BlockTag | undefined;
  toBlock: BlockTag | undefined;
  address: Uint8Array[] | undefined;
  topics: Uint8Array[] | undefined;
}

export const eventFilterParam = (name: string) => p.object(name, filterFields);

/**
 * The predicate of an `events` subscription over published items (the JSON form of
 * `eventViewJson`): an event passes when its emitter and topic are among the filter's
 * (absent = any). Block ranges do not apply to live events.
 */
export function eventPredicate(raw: unknown): (item: unknown) => boolean {
  const f = eventFilterParam("filter").parse(raw);
  const emitters = f.address?.map((a) => data(a));
  const topics = f.topics?.map((t) => data(t));
  return (item) => {
    const e = item as { emitter: string; topic: string };
    if (emitters !== undefined && !emitters.includes(e.emitter)) return false;
    if (topics !== undefined && !topics.includes(e.topic)) return false;
    return true;
  };
}

export class EventsModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods() {
    const b = this.backend;
    return {
      cowboy_getLogs: method(
        "events of the given emitters (and topics) in a block range (default: the latest block)",
        [eventFilterParam("filter")],
        async ([f]) => {
          if (f.address === undefined) {
            throw RpcError.invalidParams('invalid filter: "address" is required (one or an array)', {
              param: "filter",
            });
          }
          const head = b.head().height;
          const from = f.fromBlock === undefined ? head : heightOf(b, f.fromBlock);
          const to = f.toBlock === undefined ? head : heightOf(b, f.toBlock);
          if (from === null) return [];
          const last = to === null ? head : to;
          if (last < from) {
            throw RpcError.invalidParams(`invalid filter: fromBlock ${from} is after toBlock ${last}`, {
              param: "filter",
            });
          }
          if (last - from + 1n > MAX_LOG_RANGE) {
            throw new RpcError(
              RpcErrorCode.LIMIT_EXCEEDED,
              `block range of ${last - from + 1n} exceeds the limit of ${MAX_LOG_RANGE}`,
            );
          }
          const found = await b.events({
            fromHeight: from,
            toHeight: last,
            emitters: f.address,
            topics: f.topics ?? [],
            limit: MAX_LOG_RESULTS + 1,
          });
          if (found.length > MAX_LOG_RESULTS) {
            throw new RpcError(
              RpcErrorCode.LIMIT_EXCEEDED,
              `more than ${MAX_LOG_RESULTS} events match; narrow the block range`,
            );
          }
          return found.map(eventViewJson);
        },
      ),
    };
  }
}
