import { describe, expect, it } from "vitest";
import { RpcDispatcher } from "../dispatcher.ts";
import type { ChainBackend, JobView } from "./backend.ts";
import type { DevBackend } from "./dev.ts";
import { DevJobsModule, JobsModule } from "./jobs.ts";

const ID = new Uint8Array(32).fill(0xab);
const JOB: JobView = {
  id: ID,
  status: "delivered",
  actor: new Uint8Array(20).fill(0x11),
  jobType: "http",
  callback: "on_price",
  maxPrice: 1_000n,
  tip: 3n,
  submittedAt: 5n,
  deadline: 10n,
  specHash: new Uint8Array(32).fill(0x22),
  spec: new Uint8Array(0),
  settledAt: 7n,
  runner: new Uint8Array(20).fill(0x77),
  payment: 500n,
  resultHash: new Uint8Array(32).fill(0x33),
  callbackOk: true,
};

class JobError extends Error {
  readonly code = "ERR_JOB_UNKNOWN";
  readonly data = {};
}

/** The slice of a chain backend the job methods read. */
function backend(withJobs: boolean): ChainBackend {
  const reads: bigint[] = [];
  const b = {
    reads,
    head: () => ({ height: 12n, hash: new Uint8Array(32) }),
    finalizedHeight: () => 11n,
    ...(withJobs
      ? {
          job(id: Uint8Array, height: bigint) {
            reads.push(height);
            return Buffer.from(id).equals(Buffer.from(ID)) ? JOB : null;
          },
        }
      : {}),
  };
  return b as unknown as ChainBackend;
}

const ctx = { transport: "http" as const, connection: null };
const req = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`;

describe("cowboy_getJob", () => {
  it("answers a job in JSON form, null for an unknown one, at the tag's height", async () => {
    const b = backend(true);
    const d = new RpcDispatcher([new JobsModule(b)]);
    const res = (await d.handle(req("cowboy_getJob", [hex(ID)]), ctx)) as { result: Record<string, unknown> };
    expect(res.result).toEqual({
      id: hex(ID),
      status: "delivered",
      actor: hex(JOB.actor),
      jobType: "http",
      callback: "on_price",
      maxPrice: "0x3e8",
      tip: "0x3",
      submittedAt: "0x5",
      deadline: "0xa",
      specHash: hex(JOB.specHash),
      spec: "0x",
      settledAt: "0x7",
      runner: hex(JOB.runner as Uint8Array),
      payment: "0x1f4",
      resultHash: hex(JOB.resultHash as Uint8Array),
      callbackOk: true,
    });
    const none = (await d.handle(req("cowboy_getJob", [hex(new Uint8Array(32)), "finalized"]), ctx)) as {
      result: unknown;
    };
    expect(none.result).toBeNull();
    expect((b as unknown as { reads: bigint[] }).reads).toEqual([12n, 11n]);
    const bad = (await d.handle(req("cowboy_getJob", ["0x1234"]), ctx)) as { error: { code: number } };
    expect(bad.error.code).toBe(-32602);
  });

  it("is not served by a backend without jobs", async () => {
    const d = new RpcDispatcher([new JobsModule(backend(false))]);
    const res = (await d.handle(req("cowboy_getJob", [hex(ID)]), ctx)) as { error: { code: number } };
    expect(res.error.code).toBe(-32601);
  });
});

describe("cowboy_deliverJobResult", () => {
  it("passes id, result, runner and payment to the dev backend and answers the hash", async () => {
    const calls: unknown[] = [];
    const dev = {
      deliverJobResult(id: Uint8Array, result: Uint8Array, opts: { runner?: Uint8Array; payment?: bigint }) {
        calls.push([hex(id), hex(result), opts]);
        if (id[0] === 0) throw new JobError("no job 0x00…");
        return new Uint8Array(32).fill(0xcd);
      },
    } as unknown as DevBackend;
    const d = new RpcDispatcher([new DevJobsModule(dev)]);
    const ok = (await d.handle(req("cowboy_deliverJobResult", [hex(ID), "0x182a"]), ctx)) as {
      result: string;
    };
    expect(ok.result).toBe(hex(new Uint8Array(32).fill(0xcd)));
    const runner = hex(new Uint8Array(20).fill(0x77));
    await d.handle(req("cowboy_deliverJobResult", [hex(ID), "0x01", runner, "0x10"]), ctx);
    expect(calls).toEqual([
      [hex(ID), "0x182a", {}],
      [hex(ID), "0x01", { runner: new Uint8Array(20).fill(0x77), payment: 16n }],
    ]);
    const refused = (await d.handle(
      req("cowboy_deliverJobResult", [hex(new Uint8Array(32)), "0x01"]),
      ctx,
    )) as {
      error: { code: number; data: { code: string } };
    };
    expect(refused.error.code).toBe(-32000);
    expect(refused.error.data.code).toBe("ERR_JOB_UNKNOWN");
    const none = new RpcDispatcher([new DevJobsModule({} as DevBackend)]);
    const res = (await none.handle(req("cowboy_deliverJobResult", [hex(ID), "0x01"]), ctx)) as {
      error: { code: number };
    };
    expect(res.error.code).toBe(-32601);
  });
});
