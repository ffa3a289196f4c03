/**
 * `ExecutionModule`: simulate a handler call without committing (`cowboy_call`: result,
 * cycles, cells, events and the fee estimate of §17.10) and estimate the fee of a
 * transaction (`cowboy_estimateFee`).
 */
import { type CodecError, decodeTransaction, MAX_HANDLER_LEN, MAX_TX_SIZE } from "@cowboy/sdk";
import { RpcError } from "../errors.ts";
import { method, type RpcModule } from "../module.ts";
import { type Param, p } from "../params.ts";
import type { CallRequest, ChainBackend } from "./backend.ts";
import { callOutcomeJson, feeEstimateJson } from "./json.ts";
import { LATEST, requireHeight } from "./tags.ts";

const HANDLER = new RegExp(`^[A-Za-z_][A-Za-z0-9_]{0,${MAX_HANDLER_LEN - 1}}$`);

/** The call object of `cowboy_call` and `cowboy_estimateFee`. */
export function callObject(name: string): Param<CallRequest> {
  const inner = p.object(name, {
    from: p.optional(p.address("from")),
    to: p.address("to"),
    handler: p.string("handler", HANDLER, "a handler name (Python identifier, at most 64 bytes)"),
    args: p.optional(p.data("args", { maxLength: MAX_TX_SIZE })),
    value: p.optional(p.quantity("value")),
    cyclesLimit: p.optional(p.quantity("cyclesLimit")),
    cellsLimit: p.optional(p.quantity("cellsLimit")),
  });
  return {
    ...inner,
    parse(v) {
      const o = inner.parse(v);
      return {
        from: o.from ?? null,
        to: o.to,
        handler: o.handler,
        // an empty CBOR array: no arguments
        args: o.args ?? Uint8Array.of(0x80),
        value: o.value ?? 0n,
        cyclesLimit: o.cyclesLimit ?? null,
        cellsLimit: o.cellsLimit ?? null,
      };
    },
  };
}

export class ExecutionModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods() {
    const b = this.backend;
    const call = callObject("call");
    const rawTx = p.data("transaction", { maxLength: MAX_TX_SIZE });
    return {
      cowboy_call: method(
        "run a handler against the state of a block without committing anything",
        [call, p.optional(p.blockTag("block"), LATEST)],
        ([request, tag]) => callOutcomeJson(b.call(request, requireHeight(b, tag))),
      ),
      cowboy_estimateFee: method(
        "fee estimate (limits, basefees, fee caps) for an encoded transaction (signature may be zero) or a call object",
        [p.json("transaction", "0x-hex of an encoded transaction, or a call object")],
        ([input]) => {
          if (typeof input === "string") {
            const bytes = rawTx.parse(input);
            let tx: ReturnType<typeof decodeTransaction>;
            try {
              tx = decodeTransaction(bytes);
            } catch (err) {
              throw RpcError.invalidParams(`invalid transaction: ${(err as CodecError).message}`, {
                param: "transaction",
                code: (err as CodecError).code,
              });
            }
            return feeEstimateJson(b.estimateFee({ from: tx.from, tx }));
          }
          const request = call.parse(input);
          return feeEstimateJson(b.call(request, b.head().height).fee);
        },
      ),
    };
  }
}
