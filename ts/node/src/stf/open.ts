/**
 * {@link openChain}: a {@link Chain} over the authenticated store on disk (crates/qmdb through
 * `QmdbState`), with the actor runtime of the addon when it is built in.
 *
 * Layout of `dir`: `qmdb/` (the state store) and `head.bin` (the canonical encoding of the
 * last executed header, replaced atomically after every commit). Reopening resumes at that
 * head; its state root must equal the store's.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type BlockHeader, decodeBlockHeader, encodeBlockHeader } from "@cowboy/sdk";
import { QmdbState } from "../state/qmdb.ts";
import { Chain, type ChainOptions } from "./chain.ts";
import { StfError } from "./errors.ts";
import type {
  ActorExecRequest,
  ActorExecResult,
  ActorExecutor,
  GenesisConfig,
  StateBackend,
} from "./types.ts";

/** A chain on disk and the means to release it. */
export interface ChainHandle {
  readonly chain: Chain;
  /** The state store (its `db` is what the actor runtime executes against). */
  readonly state: QmdbState;
  /** Releases the store's directory lock. */
  close(): void;
}

type ExecuteActor = (db: unknown, req: ActorExecRequest) => ActorExecResult;

/** The addon's `executeActor` (issue 4), or null when the addon was built without it. */
export function nativeExecuteActor(): ExecuteActor | null {
  try {
    const native = createRequire(import.meta.url)("@cowboy/native") as { executeActor?: ExecuteActor };
    return typeof native.executeActor === "function" ? native.executeActor : null;
  } catch {
    return null;
  }
}

const buf = (u: Uint8Array): Buffer =>
  Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** The actor runtime bound to `state` (storage stays in Rust), or null without the runtime. */
export function qmdbExecutor(state: QmdbState): ActorExecutor | null {
  const exec = nativeExecuteActor();
  if (exec === null) return null;
  // one object literal of a fixed shape per call (no spreads): the addon reads these fields by name
  return (req) => {
    const c = req.context;
    return exec(state.db, {
      kind: req.kind,
      actor: buf(req.actor),
      code: req.code,
      handler: req.handler,
      args: buf(req.args),
      context: {
        sender: buf(c.sender),
        origin: buf(c.origin),
        value: c.value,
        height: c.height,
        timestamp: c.timestamp,
        chainId: c.chainId,
        beacon: buf(c.beacon),
        invocationId: buf(c.invocationId),
        depth: c.depth,
      },
      limits: req.limits,
    });
  };
}

function writeHead(path: string, head: BlockHeader): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, encodeBlockHeader(head));
  renameSync(tmp, path);
}

/**
 * Opens (or creates, committing genesis) the chain stored in `dir`. `opts.executor` overrides
 * the runtime (null = no actors); other options as in {@link Chain.create}.
 */
export function openChain(
  dir: string,
  genesis: GenesisConfig,
  opts: Omit<Partial<ChainOptions>, "state" | "genesis" | "head" | "onHead"> & {
    historyWindow?: number;
  } = {},
): ChainHandle {
  mkdirSync(dir, { recursive: true });
  const state = QmdbState.open(
    join(dir, "qmdb"),
    opts.historyWindow === undefined ? {} : { historyWindow: opts.historyWindow },
  );
  const headPath = join(dir, "head.bin");
  try {
    let head: BlockHeader | undefined;
    if (state.version() > 0n) {
      if (!existsSync(headPath))
        throw new StfError("ERR_CHAIN_HEAD", `${headPath} is missing: cannot resume the chain in ${dir}`);
      head = decodeBlockHeader(readFileSync(headPath));
    }
    const executor = opts.executor === undefined ? qmdbExecutor(state) : opts.executor;
    const chain = Chain.create({
      state: state as StateBackend,
      genesis,
      executor,
      ...(opts.params === undefined ? {} : { params: opts.params }),
      ...(opts.verifyBatch === undefined ? {} : { verifyBatch: opts.verifyBatch }),
      ...(head === undefined ? {} : { head }),
      onHead: (h) => writeHead(headPath, h),
    });
    return { chain, state, close: () => state.close() };
  } catch (e) {
    state.close();
    throw e;
  }
}
