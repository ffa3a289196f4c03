/**
 * The two independent EIP-1559 basefee markets of spec 01 §4.2 / §17.8:
 *
 *   basefee' = max(MIN_BASEFEE, basefee × (1 + clamp((U − T) / (T × α), −1/α, +1/α)))
 *
 * in integer arithmetic. The change is computed as
 * `floor(basefee × |U − T| / (T × α))`, capped at `floor(basefee / α)` (the ±1/α clamp
 * reached when |U − T| ≥ T), and applied with the sign of `U − T`; the result never falls
 * below `MIN_BASEFEE`. Rounding toward zero means a tiny deviation from the target can
 * leave the basefee unchanged, never move it the wrong way. `config` carries the governance
 * values (`system:basefee_config`); the defaults are the genesis ones.
 */
import { BASEFEE_ALPHA, MIN_BASEFEE } from "../params.ts";

export function nextBasefee(
  basefee: bigint,
  used: bigint,
  target: bigint,
  config: { alpha: bigint; maxChangeDenom: bigint; minBasefee: bigint } = {
    alpha: BASEFEE_ALPHA,
    maxChangeDenom: BASEFEE_ALPHA,
    minBasefee: MIN_BASEFEE,
  },
): bigint {
  const { alpha, maxChangeDenom, minBasefee } = config;
  if (basefee < 0n || used < 0n || target <= 0n || alpha <= 0n || maxChangeDenom <= 0n) {
    throw new RangeError(`nextBasefee: invalid input basefee=${basefee} used=${used} target=${target}`);
  }
  const deviation = used >= target ? used - target : target - used;
  const maxChange = basefee / maxChangeDenom;
  let change = (basefee * deviation) / (target * alpha);
  if (change > maxChange) change = maxChange;
  const next = used >= target ? basefee + change : basefee - change;
  return next < minBasefee ? minBasefee : next;
}
