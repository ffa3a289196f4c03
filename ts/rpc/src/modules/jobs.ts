/**
 * `JobsModule`: runner jobs (CIP-2) as the chain records them — `cowboy_getJob`. And
 * `DevJobsModule`: the development chain's `cowboy_deliverJobResult`, which hands a result to
 * the node as if the Result Verifier had verified it (the commit-reveal protocol that would
 * produce verified results is not built; see docs/execution.md "Runner jobs").
 */
import { data, quantity } from "../format.ts";
import { type MethodSpec, method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import type { ChainBackend, JobView } from "./backend.ts";
import type { DevBackend } from "./dev.ts";
import { LATEST, requireHeight } from "./tags.ts";

/** Largest encoded result `cowboy_deliverJobResult` accepts (spec 01 §5.4: 64 KiB). */
export const MAX_JOB_RESULT = 65_536;

/** The JSON form of a job. */
export function jobJson(j: JobView): Record<string, unknown> {
  return {
    id: data(j.id),
    status: j.status,
    actor: data(j.actor),
    jobType: j.jobType,
    callback: j.callback,
    maxPrice: quantity(j.maxPrice),
    tip: quantity(j.tip),
    submittedAt: quantity(j.submittedAt),
    deadline: quantity(j.deadline),
    specHash: data(j.specHash),
    spec: data(j.spec),
    settledAt: j.settledAt === null ? null : quantity(j.settledAt),
    runner: j.runner === null ? null : data(j.runner),
    payment: j.payment === null ? null : quantity(j.payment),
    resultHash: j.resultHash === null ? null : data(j.resultHash),
    callbackOk: j.callbackOk,
  };
}

/** `cowboy_getJob`, when the backend can read jobs (`ChainBackend.job`); otherwise nothing. */
export class JobsModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods(): Record<string, MethodSpec> {
    const b = this.backend;
    if (b.job === undefined) return {};
    const job = b.job.bind(b);
    return {
      cowboy_getJob: method(
        "a runner job by id (status pending, delivered or expired; escrow, deadline, payout); null if unknown",
        [p.hash("jobId"), p.optional(p.blockTag("block"), LATEST)],
        ([id, t]) => {
          const j = job(id, requireHeight(b, t));
          return j === null ? null : jobJson(j);
        },
      ),
    };
  }
}

/** `cowboy_deliverJobResult`, when the dev backend can deliver results; otherwise nothing. */
export class DevJobsModule implements RpcModule {
  private readonly backend: DevBackend;

  constructor(backend: DevBackend) {
    this.backend = backend;
  }

  methods(): Record<string, MethodSpec> {
    const b = this.backend;
    if (b.deliverJobResult === undefined) return {};
    const deliver = b.deliverJobResult.bind(b);
    return {
      cowboy_deliverJobResult: method(
        "development only: deliver a runner result (canonical CBOR) for a pending job in the next block, paying `runner` (default 0x…03) `payment` (default max_price); returns the delivery transaction hash",
        [
          p.hash("jobId"),
          p.data("result", { maxLength: MAX_JOB_RESULT }),
          p.optional(p.address("runner")),
          p.optional(p.quantity("payment")),
        ],
        ([id, result, runner, payment]) =>
          data(
            deliver(id, result, {
              ...(runner === undefined ? {} : { runner }),
              ...(payment === undefined ? {} : { payment }),
            }),
          ),
      ),
    };
  }
}
