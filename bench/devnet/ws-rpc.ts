/**
 * A minimal JSON-RPC 2.0 client over one WebSocket connection, used by the devnet
 * benchmark's load generator on both chains (Cowboy's `cowboy_*` and Hardhat's `eth_*`
 * methods): requests are matched to answers by id, and subscription notifications
 * (`cowboy_subscription` / `eth_subscription`) go to the handler registered for their id.
 *
 * WebSocket rather than HTTP because both nodes serve it on the same port, it keeps one
 * connection per client (the devnet rate-limits per WebSocket connection, per address for
 * HTTP), and head subscriptions observe commits without polling.
 */

/** An error answer of the node: `code` and `message` as sent. */
export class RpcCallError extends Error {
  readonly code: number;
  readonly method: string;

  constructor(method: string, code: number, message: string) {
    super(`${method}: ${code} ${message}`);
    this.name = "RpcCallError";
    this.code = code;
    this.method = method;
  }
}

interface Waiter {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Message {
  id?: number | null;
  result?: unknown;
  error?: { code: number; message: string };
  method?: string;
  params?: { subscription?: string; result?: unknown };
}

export class WsRpc {
  private readonly socket: WebSocket;
  private readonly waiting = new Map<number, Waiter>();
  private readonly handlers = new Map<string, (result: unknown) => void>();
  private nextId = 1;
  private closed: Error | null = null;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener("message", (e) => this.onMessage(String(e.data)));
    socket.addEventListener("close", () => this.fail(new Error("WebSocket closed")));
    socket.addEventListener("error", () => this.fail(new Error("WebSocket error")));
  }

  /** Opens a connection to `url` (`ws://…`); rejects when it cannot be opened. */
  static open(url: string): Promise<WsRpc> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const onError = () => reject(new Error(`cannot open WebSocket ${url}`));
      socket.addEventListener("error", onError, { once: true });
      socket.addEventListener(
        "open",
        () => {
          socket.removeEventListener("error", onError);
          resolve(new WsRpc(socket));
        },
        { once: true },
      );
    });
  }

  /** Sends one request and resolves to its result (rejects with {@link RpcCallError} on an error answer). */
  call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    if (this.closed !== null) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  /**
   * Subscribes with `<prefix>_subscribe(params…)`; `onItem` receives every notification's
   * `result`. Resolves once the node has confirmed the subscription.
   */
  async subscribe(prefix: string, params: unknown[], onItem: (result: unknown) => void): Promise<string> {
    const id = await this.call<string>(`${prefix}_subscribe`, params);
    this.handlers.set(id, onItem);
    return id;
  }

  close(): void {
    this.closed ??= new Error("WebSocket closed by the client");
    this.socket.close();
  }

  private onMessage(text: string): void {
    const m = JSON.parse(text) as Message;
    if (m.method !== undefined && m.params?.subscription !== undefined) {
      this.handlers.get(m.params.subscription)?.(m.params.result);
      return;
    }
    if (typeof m.id !== "number") return;
    const w = this.waiting.get(m.id);
    if (w === undefined) return;
    this.waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new RpcCallError(w.method, m.error.code, m.error.message));
    else w.resolve(m.result);
  }

  private fail(err: Error): void {
    this.closed ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
