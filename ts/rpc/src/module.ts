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
  /**
   * Optional work shared by the requests of one batch calling this method, done once before
   * the batch's requests are handled (in order, one by one, as always) with the parsed
   * arguments of every such request whose parameters are valid — e.g. verifying the
   * signatures of all the batch's transactions at once. It must not change what any handler
   * answers (only how fast); a throw or rejection is logged and ignored.
   */
  prepare?(argsList: readonly ParamValues<P>[]): void | Promise<void>;
}

/** Declares a method with typed parameters (keeps the handler's argument types inferred). */
export function method<const P extends readonly Param<unknown>[]>(
  description: string,
  params: P,
  handler: (args: ParamValues<P>, ctx: RequestContext) => unknown | Promise<unknown>,
  prepare?: (argsList: readonly ParamValues<P>[]) => void | Promise<void>,
): MethodSpec<P> {
  return prepare === undefined ? { description, params, handler } : { description, params, handler, prepare };
}

export interface RpcModule {
  /** the methods this module serves, by full name */
  methods(): Readonly<Record<string, MethodSpec<readonly Param<unknown>[]>>>;
}
