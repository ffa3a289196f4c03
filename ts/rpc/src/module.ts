/**
 * An RPC module is a class that groups related methods (`cowboy_getBalance`,
 * `cowboy_getTransactionCount`, … in an accounts module) and declares each method's
 * parameters, so validation happens in one place (the dispatcher) and handlers receive
 * parsed, typed values.
 */
import type { Param, ParamValues } from "./params.ts";

/** What a handler knows about the request it serves. */
export interface RequestContext {
  readonly transport: "http" | "ws";
  /** the WebSocket connection, for subscriptions; null over HTTP */
  readonly connection: RpcConnection | null;
}

/** A client connection able to receive notifications (WebSocket). */
export interface RpcConnection {
  readonly id: number;
  send(message: unknown): void;
  /** called when the connection closes */
  onClose(listener: () => void): void;
}

export interface MethodSpec<P extends readonly Param<unknown>[] = readonly Param<unknown>[]> {
  readonly params: P;
  readonly description: string;
  handler(args: ParamValues<P>, ctx: RequestContext): unknown | Promise<unknown>;
}

/** Declares a method with typed parameters (keeps the handler's argument types inferred). */
export function method<const P extends readonly Param<unknown>[]>(
  description: string,
  params: P,
  handler: (args: ParamValues<P>, ctx: RequestContext) => unknown | Promise<unknown>,
): MethodSpec<P> {
  return { description, params, handler };
}

export interface RpcModule {
  /** the methods this module serves, by full name */
  methods(): Readonly<Record<string, MethodSpec<readonly Param<unknown>[]>>>;
}
