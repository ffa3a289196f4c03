/**
 * Block-tag resolution shared by the chain modules: `latest`, `pending` and `safe` mean
 * the head (a single-node devnet has no separate safe head; `pending` state is the head's
 * — the pending *nonce* is served by `cowboy_getTransactionCount` with the mempool),
 * `finalized` the newest final block, `earliest` the genesis block, a number itself.
 */
import { RpcError, RpcErrorCode } from "../errors.ts";
import type { BlockTag } from "../params.ts";
import type { ChainBackend } from "./backend.ts";

/** The height `tag` names, or null for a number beyond the head. */
export function heightOf(backend: ChainBackend, tag: BlockTag): bigint | null {
  const head = backend.head().height;
  if ("height" in tag) return tag.height <= head ? tag.height : null;
  switch (tag.tag) {
    case "earliest":
      return 0n;
    case "finalized":
      return backend.finalizedHeight();
    default:
      return head;
  }
}

/** Like {@link heightOf}, but a missing block is a -32001 error (for state reads). */
export function requireHeight(backend: ChainBackend, tag: BlockTag): bigint {
  const height = heightOf(backend, tag);
  if (height === null) {
    const asked = "height" in tag ? tag.height : tag.tag;
    throw new RpcError(
      RpcErrorCode.RESOURCE_NOT_FOUND,
      `block ${asked} does not exist yet (head is ${backend.head().height})`,
    );
  }
  return height;
}

export const LATEST: BlockTag = { tag: "latest" };
