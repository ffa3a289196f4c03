/**
 * JSON shapes of the chain methods, apart from the domain types: quantities as hex
 * (`0x1a`), bytes as `0x` hex, field names in Ethereum's habits where one exists
 * (`number`, `parentHash`, `transactionHash`, `blockNumber`, …).
 */
import { type Event, encodeTransaction, type Instruction, type Transaction } from "@cowboy/sdk";
import { data, quantity } from "../format.ts";
import type {
  BlockView,
  CallOutcome,
  EventView,
  FeeEstimate,
  ProvenRead,
  ReceiptView,
  TimerView,
  TxView,
} from "./backend.ts";

export function instructionJson(ix: Instruction): Record<string, unknown> {
  switch (ix.kind) {
    case "transfer":
      return { kind: "transfer", to: data(ix.to), amount: quantity(ix.amount) };
    case "registerValidator":
      return {
        kind: "registerValidator",
        blsKey: data(ix.blsKey),
        proofOfPossession: data(ix.proofOfPossession),
        stake: quantity(ix.stake),
      };
    case "exitValidator":
    case "withdrawStake":
    case "unjailValidator":
      return { kind: ix.kind };
    case "submitEvidence":
      return { kind: "submitEvidence", evidence: data(ix.evidence) };
    case "sysCancelTimer":
      return {
        kind: "sysCancelTimer",
        actor: data(ix.actor),
        timerId: data(ix.timerId),
        epoch: quantity(ix.epoch),
        signers: data(ix.signers),
        signature: data(ix.signature),
      };
    case "dkgLog":
      return { kind: "dkgLog", ceremony: quantity(ix.ceremony), log: data(ix.log) };
    case "deploy":
      return {
        kind: "deploy",
        source: data(ix.source),
        salt: data(ix.salt),
        initArgs: data(ix.initArgs),
        value: quantity(ix.value),
      };
    case "call":
      return {
        kind: "call",
        to: data(ix.to),
        handler: ix.handler,
        args: data(ix.args),
        value: quantity(ix.value),
      };
    case "scheduleTimer":
      return {
        kind: "scheduleTimer",
        actor: data(ix.actor),
        fireAtHeight: quantity(ix.fireAtHeight),
        handler: ix.handler,
        data: data(ix.data),
        interval: ix.interval === null ? null : quantity(ix.interval),
      };
    case "cancelTimer":
      return { kind: "cancelTimer", actor: data(ix.actor), timerId: data(ix.timerId) };
    case "custom":
      return { kind: "custom", subType: ix.subType, payload: data(ix.payload) };
    case "publishLibrary":
      return {
        kind: "publishLibrary",
        name: ix.name,
        version: quantity(ix.version),
        source: data(ix.source),
      };
  }
}

export function transactionJson(tx: Transaction, hash: Uint8Array): Record<string, unknown> {
  return {
    hash: data(hash),
    chainId: quantity(tx.chainId),
    nonce: quantity(tx.nonce),
    from: data(tx.from),
    instruction: instructionJson(tx.instruction),
    cyclesLimit: quantity(tx.cyclesLimit),
    cellsLimit: quantity(tx.cellsLimit),
    maxFeePerCycle: quantity(tx.maxFeePerCycle),
    maxFeePerCell: quantity(tx.maxFeePerCell),
    maxPriorityFeePerCycle: quantity(tx.maxPriorityFeePerCycle),
    maxPriorityFeePerCell: quantity(tx.maxPriorityFeePerCell),
    metadata: data(tx.metadata),
    signature: data(tx.signature),
    additionalSigners: tx.additionalSigners.map((s) => ({
      address: data(s.address),
      signature: data(s.signature),
    })),
    // the canonical encoding, so clients can decode the exact transaction
    raw: data(encodeTransaction(tx)),
  };
}

export function txViewJson(view: TxView): Record<string, unknown> {
  const loc = view.location;
  return {
    ...transactionJson(view.tx, view.hash),
    blockHash: loc === null ? null : data(loc.blockHash),
    blockNumber: loc === null ? null : quantity(loc.height),
    transactionIndex: loc === null ? null : quantity(loc.index),
  };
}

/** A block; `full` lists whole transactions, otherwise their hashes. */
export function blockJson(view: BlockView, full: boolean): Record<string, unknown> {
  const h = view.block.header;
  return {
    number: quantity(h.height),
    hash: data(view.hash),
    parentHash: data(h.parent),
    round: { epoch: quantity(h.round.epoch), view: quantity(h.round.view) },
    proposer: data(h.proposer),
    timestamp: quantity(h.timestampMs),
    stateRoot: data(h.stateRoot),
    transactionsRoot: data(h.txRoot),
    receiptsRoot: data(h.receiptsRoot),
    cycleBasefee: quantity(h.cycleBasefee),
    cellBasefee: quantity(h.cellBasefee),
    cyclesUsed: quantity(h.cyclesUsed),
    cellsUsed: quantity(h.cellsUsed),
    size: quantity(view.size),
    transactions: full
      ? view.block.transactions.map((tx, i) =>
          txViewJson({
            tx,
            hash: view.txHashes[i] as Uint8Array,
            location: { blockHash: view.hash, height: h.height, index: i },
          }),
        )
      : view.txHashes.map((x) => data(x)),
  };
}

/** The header fields a `newHeads` subscriber receives. */
export function headJson(view: BlockView): Record<string, unknown> {
  const { transactions: _omit, ...rest } = blockJson(view, false);
  return { ...rest, transactionCount: quantity(view.txHashes.length) };
}

function eventJson(e: Event, logIndex: number): Record<string, unknown> {
  return { emitter: data(e.emitter), topic: data(e.topic), data: data(e.data), logIndex: quantity(logIndex) };
}

export function receiptJson(view: ReceiptView): Record<string, unknown> {
  const r = view.receipt;
  const loc = view.location;
  const base = {
    blockHash: data(loc.blockHash),
    blockNumber: quantity(loc.height),
    transactionIndex: quantity(loc.index),
  };
  return {
    transactionHash: data(r.txHash),
    ...base,
    kind: view.kind ?? "tx",
    from: view.from === null ? null : data(view.from),
    to: view.to === null ? null : data(view.to),
    contractAddress: view.contractAddress === null ? null : data(view.contractAddress),
    status: r.status,
    cyclesUsed: quantity(r.cyclesUsed),
    cellsUsed: quantity(r.cellsUsed),
    feePaid: quantity(r.feePaid),
    cycleBasefee: quantity(view.cycleBasefee),
    cellBasefee: quantity(view.cellBasefee),
    returnData: data(r.returnData),
    error: r.error,
    events: r.events.map((e, i) => ({ ...eventJson(e, i), ...base, transactionHash: data(r.txHash) })),
  };
}

export function eventViewJson(e: EventView): Record<string, unknown> {
  return {
    emitter: data(e.emitter),
    topic: data(e.topic),
    data: data(e.data),
    blockNumber: quantity(e.height),
    blockHash: data(e.blockHash),
    transactionHash: data(e.txHash),
    transactionIndex: quantity(e.txIndex),
    logIndex: quantity(e.logIndex),
  };
}

export function feeEstimateJson(f: FeeEstimate): Record<string, unknown> {
  return {
    cyclesUsed: quantity(f.cyclesUsed),
    cellsUsed: quantity(f.cellsUsed),
    cyclesLimit: quantity(f.cyclesLimit),
    cellsLimit: quantity(f.cellsLimit),
    cycleBasefee: quantity(f.cycleBasefee),
    cellBasefee: quantity(f.cellBasefee),
    maxFeePerCycle: quantity(f.maxFeePerCycle),
    maxFeePerCell: quantity(f.maxFeePerCell),
    maxPriorityFeePerCycle: quantity(f.maxPriorityFeePerCycle),
    maxPriorityFeePerCell: quantity(f.maxPriorityFeePerCell),
    fee: quantity(f.fee),
    maxCharge: quantity(f.maxCharge),
  };
}

export function callOutcomeJson(c: CallOutcome): Record<string, unknown> {
  return {
    ok: c.ok,
    result: data(c.result),
    error: c.error,
    cyclesUsed: quantity(c.cyclesUsed),
    cellsUsed: quantity(c.cellsUsed),
    events: c.events.map((e) => ({ emitter: data(e.emitter), topic: data(e.topic), data: data(e.data) })),
    fee: feeEstimateJson(c.fee),
  };
}

export function provenReadJson(r: ProvenRead): Record<string, unknown> {
  return {
    key: data(r.key),
    value: r.value === null ? null : data(r.value),
    proof: data(r.proof),
    stateRoot: data(r.root),
    blockNumber: quantity(r.height),
  };
}

export function timerJson(t: TimerView): Record<string, unknown> {
  return {
    id: data(t.id),
    actor: data(t.actor),
    fireAt: quantity(t.fireAt),
    handler: t.handler,
    interval: t.interval === null ? null : quantity(t.interval),
    data: data(t.data),
  };
}
