/**
 * The validator's own JSON-RPC method (beside the chain methods every node serves, including
 * the validator set's `cowboy_getValidators` / `cowboy_getValidator` of ts/rpc):
 *
 * | method | params | result |
 * | --- | --- | --- |
 * | `cowboy_consensusStatus` | `[]` | `{index, epoch, voting, view, finalizedView, finalizedHeight, evidence}` (hex quantities; `voting` a boolean) |
 *
 * `evidence` counts the equivocations this validator has detected or received (verified).
 * `epoch` is the epoch whose voter runs (views restart at 1 in every epoch); `voting` is false
 * while the node only follows it (not in the epoch's set, or no share of its group).
 */
import { type MethodSpec, method, type RpcModule } from "@cowboy/rpc";

/** What the module reads from the node. */
export interface ValidatorRpcSource {
  readonly index: number;
  status(): {
    view: number;
    finalizedView: number;
    finalizedHeight: number;
    evidence: number;
    epoch?: number;
    voting?: boolean;
  };
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
          epoch: q(s.epoch ?? 0),
          voting: s.voting ?? true,
          view: q(s.view),
          finalizedView: q(s.finalizedView),
          finalizedHeight: q(s.finalizedHeight),
          evidence: q(s.evidence),
        };
      }) as MethodSpec,
    };
  }
}
