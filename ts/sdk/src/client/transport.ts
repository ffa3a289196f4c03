/**
 * JSON-RPC 2.0 transports for the client, portable to browsers and Node (only
 * `fetch`, `WebSocket`, `AbortController` and timers; no Node modules):
 *
 * - {@link HttpTransport}: `POST`s requests; concurrent requests issued in the
 *   same tick are sent as one JSON-RPC batch (at most `maxBatch` per body) and
 *   their answers matched by id.
 * - {@link WebSocketTransport}: one connection for requests and subscriptions
 *   (`cowboy_subscribe`); when the connection drops it reconnects with backoff
 *   and re-subscribes every live subscription (their handles keep working; the
 *   node-side id changes and `handle.id` follows it).
 *
 * Both reject with the typed errors of `errors.ts`: {@link RpcRequestError} for
 * an error answer, {@link TransportError} when there is no usable answer.
 */
import { RpcRequestError, TransportError } from "./errors.ts";

/** Parameters of a request: positional or named. */
export type RpcParams = readonly unknown[] | Readonly<Record<string, unknown>>;

/** What the clients need from a transport. */
export interface Transport {
  /** Where requests go (for messages). */
  readonly url: string;
  /** Sends one request and resolves to its `result` (rejects with a typed error). */
  request(method: string, params?: RpcParams): Promise<unknown>;
  /** Releases the connection (pending requests are rejected). */
  close(): Promise<void>;
}

/** A transport that can hold subscriptions (a WebSocket). */
export interface SubscribingTransport extends Transport {
  subscribe(topic: string, filter: unknown, listener: SubscriptionListener): Promise<SubscriptionHandle>;
}

/** Receives a subscription's notifications. */
export interface SubscriptionListener {
  onData(result: unknown): void;
  /** re-subscribing after a reconnect failed; the subscription is over */
  onError?(err: Error): void;
}

/** A live subscription. */
export interface SubscriptionHandle {
  readonly topic: string;
  /** The node's current id for it (changes when the transport reconnects). */
  readonly id: string;
  /** Cancels it on the node; resolves to whether the node still had it. */
  unsubscribe(): Promise<boolean>;
}

/** Whether `t` supports subscriptions. */
export function canSubscribe(t: Transport): t is SubscribingTransport {
  return typeof (t as Partial<SubscribingTransport>).subscribe === "function";
}

interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

interface Pending {
  method: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: ReturnType<typeof setTimeout> | null;
}

function isErrorObject(e: unknown): e is JsonRpcErrorObject {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as JsonRpcErrorObject).code === "number" &&
    typeof (e as JsonRpcErrorObject).message === "string"
  );
}

/** Settles `p` from one response object; false when `msg` is not a response. */
function settle(p: Pending, msg: Record<string, unknown>, url: string): void {
  if ("error" in msg && msg.error !== undefined && msg.error !== null) {
    const e = msg.error;
    if (isErrorObject(e)) p.reject(new RpcRequestError(p.method, e.code, e.message, e.data));
    else
      p.reject(
        new TransportError("bad-response", url, `malformed error object in the answer to ${p.method}`),
      );
  } else if ("result" in msg) {
    p.resolve(msg.result);
  } else {
    p.reject(new TransportError("bad-response", url, `answer to ${p.method} has neither result nor error`));
  }
}

// ---------------------------------------------------------------------------
// HTTP

/** Options of {@link HttpTransport}. */
export interface HttpTransportOptions {
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Batch concurrent requests (default true); `false` sends each alone. */
  batch?: boolean;
  /** Most requests per batch body (default 100, the node's limit). */
  maxBatch?: number;
  /** Extra HTTP headers. */
  headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
}

interface Queued extends Pending {
  id: number;
  params: RpcParams | undefined;
}

/** JSON-RPC over HTTP POST, with automatic batching of concurrent requests. */
export class HttpTransport implements Transport {
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly batching: boolean;
  private readonly maxBatch: number;
  private readonly headers: Record<string, string>;
  private readonly fetchFn: typeof fetch;
  private nextId = 1;
  private queue: Queued[] = [];
  private scheduled = false;
  private readonly inFlight = new Set<AbortController>();

  constructor(url: string, options: HttpTransportOptions = {}) {
    this.url = url;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.batching = options.batch ?? true;
    this.maxBatch = Math.max(1, options.maxBatch ?? 100);
    this.headers = { "content-type": "application/json", ...options.headers };
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new TypeError("HttpTransport: no fetch available; pass options.fetch");
    this.fetchFn = f.bind(globalThis);
  }

  request(method: string, params?: RpcParams): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, method, params, resolve, reject, timer: null });
      if (!this.batching) {
        this.flush();
      } else if (!this.scheduled) {
        this.scheduled = true;
        // Everything requested in this tick goes into one body.
        setTimeout(() => this.flush(), 0);
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queued = this.queue;
    this.queue = [];
    for (let i = 0; i < queued.length; i += this.maxBatch) {
      void this.send(queued.slice(i, i + this.maxBatch));
    }
  }

  private async send(group: Queued[]): Promise<void> {
    const bodies = group.map((q) => {
      const req: Record<string, unknown> = { jsonrpc: "2.0", id: q.id, method: q.method };
      if (q.params !== undefined) req.params = q.params;
      return req;
    });
    // one request goes alone, several as a batch array
    const body = JSON.stringify(group.length === 1 ? bodies[0] : bodies);
    const abort = new AbortController();
    this.inFlight.add(abort);
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    const failAll = (err: Error) => {
      for (const q of group) q.reject(err);
    };
    let text: string;
    let status: number;
    try {
      const res = await this.fetchFn(this.url, {
        method: "POST",
        headers: this.headers,
        body,
        signal: abort.signal,
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      const timedOut = abort.signal.aborted;
      failAll(
        timedOut
          ? new TransportError("timeout", this.url, `no answer from ${this.url} within ${this.timeoutMs} ms`)
          : new TransportError(
              "network",
              this.url,
              `cannot reach ${this.url}: ${(err as Error).message}${causeOf(err)} (is the node running? start one with \`cowboy devnet\`)`,
            ),
      );
      return;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
    }
    let parsed: unknown;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      failAll(
        new TransportError(
          status === 200 ? "bad-response" : "http",
          this.url,
          `HTTP ${status}: not JSON`,
          status,
        ),
      );
      return;
    }
    const byId = new Map(group.map((q) => [q.id, q]));
    const answers = Array.isArray(parsed) ? parsed : [parsed];
    for (const a of answers) {
      if (typeof a !== "object" || a === null) continue;
      const msg = a as Record<string, unknown>;
      const q = typeof msg.id === "number" ? byId.get(msg.id) : undefined;
      if (q === undefined) {
        // A message without a known id (id null) is an error about the whole body:
        // batch too large, body too large, rate limit, parse error.
        if (isErrorObject(msg.error)) {
          for (const p of byId.values()) settle(p, msg, this.url);
          byId.clear();
        }
        continue;
      }
      byId.delete(q.id);
      settle(q, msg, this.url);
    }
    for (const q of byId.values()) {
      q.reject(
        new TransportError(
          status === 200 ? "bad-response" : "http",
          this.url,
          status === 200 ? `no answer to ${q.method} in the response` : `HTTP ${status} from ${this.url}`,
          status,
        ),
      );
    }
  }

  async close(): Promise<void> {
    for (const a of this.inFlight) a.abort();
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause === undefined || cause === null) return "";
  if (typeof cause.code === "string") return ` (${cause.code})`;
  return typeof cause.message === "string" ? ` (${cause.message})` : "";
}

// ---------------------------------------------------------------------------
// WebSocket

/** The part of the WHATWG `WebSocket` the transport uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

/** Constructs a {@link WebSocketLike} (default: `globalThis.WebSocket`). */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** Options of {@link WebSocketTransport}. */
export interface WebSocketTransportOptions {
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Reconnect after an unexpected close (default true). */
  reconnect?: boolean;
  /** Most reconnect attempts in a row before giving up (default 10). */
  maxReconnectAttempts?: number;
  /** First reconnect delay in ms, doubled per attempt up to 5 s (default 100). */
  reconnectDelayMs?: number;
  /** How to open a socket (default `new globalThis.WebSocket(url)`). */
  webSocket?: WebSocketFactory;
}

const WS_OPEN = 1;

interface LiveSub {
  topic: string;
  filter: unknown;
  listener: SubscriptionListener;
  id: string;
  active: boolean;
}

/** JSON-RPC over one WebSocket: requests, subscriptions, reconnect with re-subscribe. */
export class WebSocketTransport implements SubscribingTransport {
  readonly url: string;
  private readonly timeoutMs: number;
  private readonly reconnect: boolean;
  private readonly maxAttempts: number;
  private readonly baseDelay: number;
  private readonly factory: WebSocketFactory;
  private socket: WebSocketLike | null = null;
  private opening: Promise<WebSocketLike> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly subs = new Set<LiveSub>();
  private readonly byNodeId = new Map<string, LiveSub>();
  private closed = false;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Called after each successful reconnect (subscriptions re-established). */
  onReconnect: (() => void) | null = null;

  constructor(url: string, options: WebSocketTransportOptions = {}) {
    this.url = url;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.reconnect = options.reconnect ?? true;
    this.maxAttempts = options.maxReconnectAttempts ?? 10;
    this.baseDelay = options.reconnectDelayMs ?? 100;
    if (options.webSocket !== undefined) {
      this.factory = options.webSocket;
    } else {
      const Ctor = (globalThis as { WebSocket?: new (url: string) => unknown }).WebSocket;
      if (typeof Ctor !== "function") {
        throw new TypeError("WebSocketTransport: no WebSocket available; pass options.webSocket");
      }
      this.factory = (u) => new Ctor(u) as WebSocketLike;
    }
  }

  /** Whether the socket is open right now. */
  get connected(): boolean {
    return this.socket !== null && this.socket.readyState === WS_OPEN;
  }

  private open(): Promise<WebSocketLike> {
    if (this.closed) return Promise.reject(new TransportError("closed", this.url, "the transport is closed"));
    if (this.socket !== null && this.socket.readyState === WS_OPEN) return Promise.resolve(this.socket);
    if (this.opening !== null) return this.opening;
    this.opening = new Promise<WebSocketLike>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws = this.factory(this.url);
      } catch (err) {
        this.opening = null;
        reject(new TransportError("network", this.url, `cannot open ${this.url}: ${(err as Error).message}`));
        return;
      }
      let opened = false;
      ws.onopen = () => {
        opened = true;
        this.socket = ws;
        this.opening = null;
        resolve(ws);
      };
      ws.onmessage = (ev) => this.onMessage(ev.data);
      ws.onerror = () => {
        // the close event that follows does the work
      };
      ws.onclose = () => {
        if (!opened) {
          this.opening = null;
          reject(
            new TransportError(
              "network",
              this.url,
              `cannot connect to ${this.url} (is the node running? start one with \`cowboy devnet\`)`,
            ),
          );
          return;
        }
        this.onClosed(ws);
      };
    });
    return this.opening;
  }

  private onMessage(data: unknown): void {
    if (typeof data !== "string") return;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (typeof m !== "object" || m === null) continue;
      const obj = m as Record<string, unknown>;
      if (obj.method === "cowboy_subscription") {
        const params = obj.params as { subscription?: unknown; result?: unknown } | undefined;
        const sub =
          typeof params?.subscription === "string" ? this.byNodeId.get(params.subscription) : undefined;
        if (sub?.active) sub.listener.onData(params?.result);
        continue;
      }
      if (typeof obj.id === "number") {
        const p = this.pending.get(obj.id);
        if (p === undefined) continue;
        this.pending.delete(obj.id);
        if (p.timer !== null) clearTimeout(p.timer);
        settle(p, obj, this.url);
      } else if (obj.id === null && isErrorObject(obj.error)) {
        // e.g. a rate-limit answer that names no request: fail the oldest pending request
        const first = this.pending.entries().next();
        if (!first.done) {
          const [id, p] = first.value;
          this.pending.delete(id);
          if (p.timer !== null) clearTimeout(p.timer);
          settle(p, obj, this.url);
        }
      }
    }
  }

  private onClosed(ws: WebSocketLike): void {
    if (this.socket === ws) this.socket = null;
    const err = new TransportError("closed", this.url, `the connection to ${this.url} closed`);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      if (p.timer !== null) clearTimeout(p.timer);
      p.reject(err);
    }
    this.byNodeId.clear();
    if (!this.closed && this.reconnect && this.subs.size > 0) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== null || this.closed) return;
    if (this.attempts >= this.maxAttempts) {
      const err = new TransportError(
        "closed",
        this.url,
        `lost the connection to ${this.url} and ${this.attempts} reconnect attempts failed`,
      );
      for (const s of this.subs) {
        s.active = false;
        s.listener.onError?.(err);
      }
      this.subs.clear();
      return;
    }
    const delay = Math.min(5000, this.baseDelay * 2 ** this.attempts);
    this.attempts++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.resubscribeAll();
    }, delay);
  }

  private async resubscribeAll(): Promise<void> {
    try {
      await this.open();
    } catch {
      this.scheduleReconnect();
      return;
    }
    try {
      for (const s of [...this.subs]) {
        const id = await this.subscribeOnNode(s.topic, s.filter);
        s.id = id;
        this.byNodeId.set(id, s);
      }
    } catch (err) {
      if (err instanceof TransportError) {
        this.scheduleReconnect();
        return;
      }
      for (const s of this.subs) {
        s.active = false;
        s.listener.onError?.(err as Error);
      }
      this.subs.clear();
      return;
    }
    this.attempts = 0;
    this.onReconnect?.();
  }

  async request(method: string, params?: RpcParams): Promise<unknown> {
    const ws = await this.open();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const req: Record<string, unknown> = { jsonrpc: "2.0", id, method };
      if (params !== undefined) req.params = params;
      const p: Pending = { method, resolve, reject, timer: null };
      p.timer = setTimeout(() => {
        if (this.pending.delete(id)) {
          reject(
            new TransportError("timeout", this.url, `no answer to ${method} within ${this.timeoutMs} ms`),
          );
        }
      }, this.timeoutMs);
      this.pending.set(id, p);
      try {
        ws.send(JSON.stringify(req));
      } catch (err) {
        this.pending.delete(id);
        clearTimeout(p.timer);
        reject(new TransportError("closed", this.url, `cannot send ${method}: ${(err as Error).message}`));
      }
    });
  }

  private async subscribeOnNode(topic: string, filter: unknown): Promise<string> {
    const id = await this.request("cowboy_subscribe", filter === undefined ? [topic] : [topic, filter]);
    if (typeof id !== "string") {
      throw new TransportError("bad-response", this.url, "cowboy_subscribe did not return a subscription id");
    }
    return id;
  }

  async subscribe(
    topic: string,
    filter: unknown,
    listener: SubscriptionListener,
  ): Promise<SubscriptionHandle> {
    const id = await this.subscribeOnNode(topic, filter);
    const sub: LiveSub = { topic, filter, listener, id, active: true };
    this.subs.add(sub);
    this.byNodeId.set(id, sub);
    return {
      topic,
      get id() {
        return sub.id;
      },
      unsubscribe: async () => {
        if (!sub.active) return false;
        sub.active = false;
        this.subs.delete(sub);
        this.byNodeId.delete(sub.id);
        if (!this.connected) return false;
        return (await this.request("cowboy_unsubscribe", [sub.id])) === true;
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    for (const s of this.subs) s.active = false;
    this.subs.clear();
    const ws = this.socket ?? (this.opening !== null ? await this.opening.catch(() => null) : null);
    this.socket = null;
    if (ws !== null) {
      ws.close(1000, "client closed");
      this.onClosed(ws);
    }
  }
}

/** A transport for `url`: WebSocket for `ws://`/`wss://`, HTTP otherwise. */
export function transportFor(
  url: string,
  options: HttpTransportOptions & WebSocketTransportOptions = {},
): Transport {
  return /^wss?:\/\//i.test(url) ? new WebSocketTransport(url, options) : new HttpTransport(url, options);
}
