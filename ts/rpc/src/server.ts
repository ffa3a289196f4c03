/**
 * The RPC server: JSON-RPC 2.0 over HTTP (`POST /`) and WebSocket (`GET /` upgrade) on
 * fastify. Transport concerns only — body and message size limits, per-client rate
 * limits, connection bookkeeping; the protocol itself is {@link RpcDispatcher}'s.
 */
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance } from "fastify";
import type { RpcDispatcher } from "./dispatcher.ts";
import { RpcErrorCode } from "./errors.ts";
import type { RpcConnection } from "./module.ts";
import { RateLimiter, type RateLimitOptions } from "./rate-limit.ts";

export interface RpcServerOptions {
  host: string;
  port: number;
  /** largest HTTP body / WebSocket message, in bytes */
  maxRequestBytes: number;
  rateLimit: Partial<RateLimitOptions>;
}

export const DEFAULT_RPC_SERVER_OPTIONS: RpcServerOptions = {
  host: "127.0.0.1",
  port: 8545,
  // a 128 KiB transaction is 256 KiB of hex; leave room for batches of them
  maxRequestBytes: 5 * 1024 * 1024,
  rateLimit: {},
};

export interface RpcServerDeps {
  dispatcher: RpcDispatcher;
  /** serves `GET /metrics` (Prometheus text exposition) when given */
  metrics?: { contentType: string; text(): string } | null;
  logger?: { info(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void } | null;
}

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
}

export class RpcServer {
  private readonly app: FastifyInstance;
  private readonly options: RpcServerOptions;
  private readonly dispatcher: RpcDispatcher;
  private readonly limiter: RateLimiter;
  private nextConnectionId = 1;

  constructor(deps: RpcServerDeps, options: Partial<RpcServerOptions> = {}) {
    this.options = { ...DEFAULT_RPC_SERVER_OPTIONS, ...options };
    this.dispatcher = deps.dispatcher;
    this.limiter = new RateLimiter(this.options.rateLimit);
    const maxBytes = this.options.maxRequestBytes;
    const app = Fastify({ logger: false, bodyLimit: maxBytes });
    this.app = app;

    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string", bodyLimit: maxBytes }, (_req, body, done) =>
      done(null, body),
    );

    app.setErrorHandler((err: { statusCode?: number; code?: string }, _req, reply) => {
      if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        reply
          .code(413)
          .type("application/json")
          .send(errorBody(RpcErrorCode.LIMIT_EXCEEDED, `request body exceeds ${maxBytes} bytes`));
        return;
      }
      deps.logger?.error({ err }, "RPC transport error");
      reply
        .code(err.statusCode ?? 500)
        .type("application/json")
        .send(errorBody(RpcErrorCode.INVALID_REQUEST, "bad request"));
    });

    app.register(websocket, { options: { maxPayload: maxBytes } });
    app.register(async (scoped) => {
      scoped.post("/", async (req, reply) => {
        const text = typeof req.body === "string" ? req.body : "";
        const message = parseMessage(text);
        reply.type("application/json");
        if (!this.limiter.take(`ip:${req.ip}`, message.cost)) {
          return reply.code(429).send(errorBody(RpcErrorCode.LIMIT_EXCEEDED, "rate limit exceeded"));
        }
        const answer = await this.answer(message, text, { transport: "http", connection: null });
        return reply.send(answer ?? "");
      });

      const metrics = deps.metrics;
      if (metrics !== undefined && metrics !== null) {
        scoped.get("/metrics", async (_req, reply) => reply.type(metrics.contentType).send(metrics.text()));
      }

      scoped.get("/", { websocket: true }, (socket) => {
        const closeListeners: Array<() => void> = [];
        const connection: RpcConnection = {
          id: this.nextConnectionId++,
          send: (message) => {
            if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
          },
          onClose: (listener) => closeListeners.push(listener),
        };
        const client = `ws:${connection.id}`;
        // Messages of one connection are handled one at a time, in arrival order: a batch may
        // await its `prepare` hook, and a later message must not overtake it.
        let previous: Promise<void> = Promise.resolve();
        socket.on("message", (raw: Buffer) => {
          const text = raw.toString("utf8");
          const message = parseMessage(text);
          // the rate limit counts a message when it arrives, its answer keeps its place in line
          const allowed = this.limiter.take(client, message.cost);
          previous = previous.then(async () => {
            try {
              const answer = allowed
                ? await this.answer(message, text, { transport: "ws", connection })
                : errorBody(RpcErrorCode.LIMIT_EXCEEDED, "rate limit exceeded");
              if (answer !== null && socket.readyState === socket.OPEN) socket.send(answer);
            } catch (err) {
              deps.logger?.error({ err }, "RPC WebSocket message failed");
            }
          });
        });
        socket.on("close", () => {
          this.limiter.forget(client);
          for (const listener of closeListeners) listener();
        });
      });
    });
  }

  /** The dispatcher's answer to a message parsed once by {@link parseMessage} (its text if it is not JSON). */
  private async answer(
    message: ParsedMessage,
    text: string,
    ctx: Parameters<RpcDispatcher["handle"]>[1],
  ): Promise<string | null> {
    if (!message.ok) return this.dispatcher.handleText(text, ctx); // answers the parse error
    const response = await this.dispatcher.handle(message.body, ctx);
    return response === null ? null : JSON.stringify(response);
  }

  /** Starts listening; resolves to the HTTP and WebSocket URLs actually bound. */
  async start(): Promise<{ http: string; ws: string }> {
    await this.app.listen({ host: this.options.host, port: this.options.port });
    const address = this.app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : this.options.port;
    return { http: `http://${this.options.host}:${port}/`, ws: `ws://${this.options.host}:${port}/` };
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}

/** A message parsed once: its JSON (if it is JSON) and its rate-limit cost. */
type ParsedMessage = { ok: true; body: unknown; cost: number } | { ok: false; cost: number };

/**
 * Parses a message once for the rate limiter and the dispatcher. Cost: the number of requests
 * in it (a batch costs its length; anything else, JSON or not, 1).
 */
function parseMessage(text: string): ParsedMessage {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, cost: 1 };
  }
  return { ok: true, body, cost: Array.isArray(body) ? Math.max(1, body.length) : 1 };
}
