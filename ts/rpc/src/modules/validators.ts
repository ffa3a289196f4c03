/**
 * `ValidatorsModule`: the validator set as the chain records it (ts/node/src/stf/validators.ts,
 * docs/execution.md "Validator set") — `cowboy_getValidators` (an epoch's set in consensus-index
 * order) and `cowboy_getValidator` (one validator's record). Served when the backend can read
 * the set (`ChainBackend.validatorSet` / `validator`); reads are of the head state.
 */
import { data, quantity } from "../format.ts";
import { type MethodSpec, method, type RpcModule } from "../module.ts";
import { p } from "../params.ts";
import type { ChainBackend, ValidatorView } from "./backend.ts";

/** The JSON form of a validator record. */
export function validatorJson(v: ValidatorView): Record<string, unknown> {
  return {
    address: data(v.address),
    blsKey: data(v.blsKey),
    stake: quantity(v.stake),
    status: v.status,
    registeredHeight: quantity(BigInt(v.registeredHeight)),
    activationEpoch: quantity(BigInt(v.activationEpoch)),
    exitHeight: quantity(BigInt(v.exitHeight)),
    jailedUntil: quantity(BigInt(v.jailedUntil)),
    jailCount: v.jailCount,
    slashed: quantity(v.slashed),
    missed: v.missed,
  };
}

export class ValidatorsModule implements RpcModule {
  private readonly backend: ChainBackend;

  constructor(backend: ChainBackend) {
    this.backend = backend;
  }

  methods(): Record<string, MethodSpec> {
    const b = this.backend;
    const out: Record<string, MethodSpec> = {};
    if (b.validatorSet !== undefined) {
      const set = b.validatorSet.bind(b);
      out.cowboy_getValidators = method(
        "the validator set of an epoch (default: the next block's epoch) in consensus-index order: { epoch, validators: [{ index, address, blsKey, stake }] }; empty when no set is kept for it",
        [p.optional(p.quantity("epoch"))],
        ([epoch]) => {
          const s = set(
            epoch === undefined || epoch > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(epoch),
          );
          return {
            epoch: quantity(BigInt(s.epoch)),
            validators: s.members.map((m, index) => ({
              index,
              address: data(m.address),
              blsKey: data(m.blsKey),
              stake: quantity(m.stake),
            })),
          };
        },
      );
    }
    if (b.validator !== undefined) {
      const one = b.validator.bind(b);
      out.cowboy_getValidator = method(
        "a validator's record (stake, status bonded/exiting, activation epoch, exit height, jail, slashed, missed votes) in the head state; null if the address is not registered",
        [p.address("address")],
        ([address]) => {
          const v = one(address);
          return v === null ? null : validatorJson(v);
        },
      );
    }
    return out;
  }
}
