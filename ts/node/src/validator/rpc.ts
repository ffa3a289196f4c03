/**
 * The validator's own JSON-RPC method (beside the chain methods every node serves, including
 * the validator set's `cowboy_getValidators` / `cowboy_getValidator` of ts/rpc):
 *
 * | method | params | result |
 * | --- | --- | --- |
 * | `cowboy_consensusStatus` | `[]` | `{index, view, finalizedView, finalizedHeight, evidence}` (hex quantities) |
 *
 * `evidence` counts the equivocations this validator has detected or received (verified).
 */
import { type MethodSpec, method, type RpcModule } from "@cowboy/rpc";

/** What the module reads from the node. */
export interface ValidatorRpcSource {
  readonly index: number;
  status(): { view: number; finalizedView: number; finalizedHeight: number; evidence: number };
}

const q = (n: number) => `0x${n.toString(16)}`;

export class ValidatorRpcModule implements RpcModule {
  private readonly src: ValidatorRpcSource;
  constructor(src: ValidatorRpcSource) {
    this.src = src;
  }

  methods(): Readonly<Record<string, MethodSpec>> {
    const src = this.src;
    return {
      cowboy_consensusStatus: method("this validator's consensus position", [], () => {
        const s = src.status();
        return {
          index: src.index,
          view: q(s.view),
          finalizedView: q(s.finalizedView),
          finalizedHeight: q(s.finalizedHeight),
          evidence: q(s.evidence),
        };
      }) as MethodSpec,
    };
  }
}
