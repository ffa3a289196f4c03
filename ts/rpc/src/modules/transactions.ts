/**
 * `TransactionsModule`: submit signed transactions, look up transactions (pending or
 * included) and receipts.
 */
import { MAX_TX_SIZE } from "@cowboy/sdk";
import { data } from "../format.ts";
import { method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import type { ChainBackend } from "./backend.ts";
import { receiptJson, txViewJson } from "./json.ts";

export class TransactionsModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods() {
    const b = this.backend;
    return {
      cowboy_sendRawTransaction: method(
        "submit a signed transaction (canonical encoding); returns its hash",
        [p.data("transaction", { maxLength: MAX_TX_SIZE })],
        async ([bytes]) => data(await b.sendRawTransaction(bytes)),
        b.prepareRawTransactions === undefined
          ? undefined
          : (list) => b.prepareRawTransactions?.(list.map(([bytes]) => bytes)),
      ),
      cowboy_getTransactionByHash: method(
        "a transaction, pending or included; null if unknown",
        [p.hash("hash")],
        async ([hash]) => {
          const view = await b.transaction(hash);
          return view === null ? null : txViewJson(view);
        },
      ),
      cowboy_getTransactionReceipt: method(
        "the receipt of an included transaction; null while pending or unknown",
        [p.hash("hash")],
        async ([hash]) => {
          const view = await b.receipt(hash);
          return view === null ? null : receiptJson(view);
        },
      ),
    };
  }
}
