/**
 * The JSON-RPC 2.0 protocol, independent of transport: request validation, batches,
 * notifications, method lookup, parameter validation and error mapping. Domain errors
 * that carry a string `code` (e.g. `ERR_MEMPOOL_NONCE_TOO_LOW`) are answered as server
 * errors with that code in `data`; anything unexpected becomes -32603 without leaking
 * internals.
 */
import { RpcError, RpcErrorCode } from "./errors.ts";
import type { MethodSpec, RequestContext, RpcModule } from "./module.ts";
import { type Param, parseParams } from "./params.ts";

export type JsonRpcId = string | number | null;

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export interface DispatcherOptions {
  /** most requests in one batch */
  maxBatch: number;
  /** maps domain errors (with a string `code`) to JSON-RPC codes; default SERVER_ERROR */
  domainErrorCode?: (code: string) => number;
  logger?: { error(obj: unknown, msg: string): void } | null;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { maxBatch: 100 };

export class RpcDispatcher {
  private readonly methods = new Map<string, MethodSpec<readonly Param<unknown>[]>>();
  private readonly options: DispatcherOptions;

  constructor(modules: readonly RpcModule[], options: Partial<DispatcherOptions> = {}) {
    this.options = { ...DEFAULT_DISPATCHER_OPTIONS, ...options };
    for (const module of modules) {
      for (const [name, spec] of Object.entries(module.methods())) {
        if (this.methods.has(name)) throw new Error(`RPC method ${name} registered twice`);
        this.methods.set(name, spec);
      }
    }
  }

  /** Names of every method served, sorted. */
  methodNames(): string[] {
    return [...this.methods.keys()].sort();
  }

  /** Handles a raw message text; returns the response text, or null when nothing is to be answered. */
  async handleText(text: string, ctx: RequestContext): Promise<string | null> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return JSON.stringify(
        failure(null, new RpcError(RpcErrorCode.PARSE_ERROR, "parse error: invalid JSON")),
      );
    }
    const response = await this.handle(body, ctx);
    return response === null ? null : JSON.stringify(response);
  }

  /**
   * Handles a parsed message (single request or batch). A batch awaits its methods' `prepare`
   * hooks first, so a transport that wants a connection's messages answered in order must not
   * start the next one before this one settles (the WebSocket server handles them one at a time).
   */
  async handle(body: unknown, ctx: RequestContext): Promise<JsonRpcResponse | JsonRpcResponse[] | null> {
    if (Array.isArray(body)) {
      if (body.length === 0) return failure(null, new RpcError(RpcErrorCode.INVALID_REQUEST, "empty batch"));
      if (body.length > this.options.maxBatch) {
        return failure(
          null,
          new RpcError(
            RpcErrorCode.LIMIT_EXCEEDED,
            `batch of ${body.length} requests exceeds the limit of ${this.options.maxBatch}`,
          ),
        );
      }
      const parsed = await this.prepareBatch(body);
      const responses: JsonRpcResponse[] = [];
      // Sequential on purpose: requests of a batch are answered in order and see each other's effects.
      for (const request of body) {
        const r = await this.handleOne(request, ctx, parsed);
        if (r !== null) responses.push(r);
      }
      return responses.length > 0 ? responses : null;
    }
    return this.handleOne(body, ctx);
  }

  /**
   * Calls the `prepare` hook of each method with a batch's valid requests of it (see
   * {@link MethodSpec.prepare}); returns the parsed parameters by request so that they are not
   * parsed twice.
   */
  private async prepareBatch(batch: readonly unknown[]): Promise<Map<unknown, readonly unknown[]>> {
    const parsed = new Map<unknown, readonly unknown[]>();
    const byMethod = new Map<MethodSpec<readonly Param<unknown>[]>, unknown[][]>();
    for (const request of batch) {
      if (typeof request !== "object" || request === null || Array.isArray(request)) continue;
      const req = request as Record<string, unknown>;
      if (req.jsonrpc !== "2.0" || typeof req.method !== "string") continue;
      const spec = this.methods.get(req.method);
      if (spec?.prepare === undefined) continue;
      let args: unknown[];
      try {
        args = parseParams(spec.params, req.params) as unknown[];
      } catch {
        continue; // answered with its error when handled
      }
      parsed.set(request, args);
      const list = byMethod.get(spec);
      if (list === undefined) byMethod.set(spec, [args]);
      else list.push(args);
    }
    for (const [spec, list] of byMethod) {
      try {
        await (spec.prepare as (l: readonly unknown[][]) => void | Promise<void>)(list);
      } catch (err) {
        this.options.logger?.error({ err }, "RPC batch preparation failed");
      }
    }
    return parsed;
  }

  private async handleOne(
    request: unknown,
    ctx: RequestContext,
    parsed: ReadonlyMap<unknown, readonly unknown[]> | null = null,
  ): Promise<JsonRpcResponse | null> {
    if (typeof request !== "object" || request === null || Array.isArray(request)) {
      return failure(null, new RpcError(RpcErrorCode.INVALID_REQUEST, "invalid request: expected an object"));
    }
    const req = request as Record<string, unknown>;
    const hasId = "id" in req;
    const id = req.id;
    if (
      hasId &&
      !(typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) || id === null)
    ) {
      return failure(
        null,
        new RpcError(RpcErrorCode.INVALID_REQUEST, "invalid request: id must be a string, number or null"),
      );
    }
    const replyId = (hasId ? id : null) as JsonRpcId;
    if (req.jsonrpc !== "2.0") {
      return failure(
        replyId,
        new RpcError(RpcErrorCode.INVALID_REQUEST, 'invalid request: jsonrpc must be "2.0"'),
      );
    }
    if (typeof req.method !== "string") {
      return failure(
        replyId,
        new RpcError(RpcErrorCode.INVALID_REQUEST, "invalid request: method must be a string"),
      );
    }
    const spec = this.methods.get(req.method);
    let response: JsonRpcResponse;
    if (spec === undefined) {
      response = failure(
        replyId,
        new RpcError(RpcErrorCode.METHOD_NOT_FOUND, `the method ${req.method} does not exist`, {
          method: req.method,
        }),
      );
    } else {
      try {
        const args = (parsed?.get(request) ?? parseParams(spec.params, req.params)) as ReturnType<
          typeof parseParams
        >;
        const result = await spec.handler(args, ctx);
        response = { jsonrpc: "2.0", id: replyId, result: result === undefined ? null : result };
      } catch (err) {
        response = failure(replyId, this.toRpcError(err, req.method));
      }
    }
    return hasId ? response : null; // notifications get no answer
  }

  private toRpcError(err: unknown, method: string): RpcError {
    if (err instanceof RpcError) return err;
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === "string" && err instanceof Error) {
      const rpcCode = this.options.domainErrorCode?.(code) ?? RpcErrorCode.SERVER_ERROR;
      const data = (err as { data?: unknown }).data;
      return new RpcError(
        rpcCode,
        err.message,
        data === undefined ? { code } : { code, ...(data as object) },
      );
    }
    this.options.logger?.error({ err, method }, "internal error in RPC handler");
    return new RpcError(RpcErrorCode.INTERNAL_ERROR, "internal error");
  }
}

function failure(id: JsonRpcId, err: RpcError): JsonRpcFailure {
  const error: JsonRpcFailure["error"] = { code: err.code, message: err.message };
  if (err.data !== undefined) error.data = err.data;
  return { jsonrpc: "2.0", id, error };
}
