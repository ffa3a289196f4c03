/**
 * Fee accounting of one transaction, spec 01 §2.3:
 *
 *   fee = cycles_used × (bc + min(max_priority_fee_per_cycle, max_fee_per_cycle − bc))
 *       + cells_used  × (bb + min(max_priority_fee_per_cell,  max_fee_per_cell  − bb))
 *
 * The sender is charged `maxCharge` up front (both limits at the max fees); after
 * execution the unused part is refunded. The basefee part is burned and the tip goes to
 * the proposer (§4.2).
 */

/** What a transaction offers to pay per unit of one meter. */
export interface MeterOffer {
  limit: bigint;
  maxFee: bigint;
  maxPriorityFee: bigint;
}

/** The settlement of one meter. */
export interface MeterCharge {
  used: bigint;
  /** per-unit price actually paid: basefee + tip */
  price: bigint;
  burned: bigint;
  tip: bigint;
}

export interface FeeSettlement {
  cycles: MeterCharge;
  cells: MeterCharge;
  /** total paid = burned + tip */
  paid: bigint;
  burned: bigint;
  tip: bigint;
  /** what was reserved up front minus what was paid */
  refund: bigint;
}

export class FeeError extends Error {
  readonly code: "ERR_FEE_BELOW_BASEFEE" | "ERR_FEE_USAGE_OVER_LIMIT";
  constructor(code: FeeError["code"], message: string) {
    super(message);
    this.name = "FeeError";
    this.code = code;
  }
}

/** The most a transaction can cost: both limits at the max fees (reserved before execution). */
export function maxCharge(cycles: MeterOffer, cells: MeterOffer): bigint {
  return cycles.limit * cycles.maxFee + cells.limit * cells.maxFee;
}

/** Per-unit tip: min(max_priority_fee, max_fee − basefee). Requires max_fee ≥ basefee. */
export function tipPerUnit(offer: MeterOffer, basefee: bigint, meter: "cycle" | "cell"): bigint {
  if (offer.maxFee < basefee) {
    throw new FeeError(
      "ERR_FEE_BELOW_BASEFEE",
      `max_fee_per_${meter} ${offer.maxFee} is below the basefee ${basefee}`,
    );
  }
  const headroom = offer.maxFee - basefee;
  return offer.maxPriorityFee < headroom ? offer.maxPriorityFee : headroom;
}

function settleMeter(offer: MeterOffer, used: bigint, basefee: bigint, meter: "cycle" | "cell"): MeterCharge {
  if (used < 0n || used > offer.limit) {
    throw new FeeError(
      "ERR_FEE_USAGE_OVER_LIMIT",
      `${meter}s used ${used} outside [0, limit ${offer.limit}]`,
    );
  }
  const tip = tipPerUnit(offer, basefee, meter);
  return { used, price: basefee + tip, burned: used * basefee, tip: used * tip };
}

/** Settles a transaction's fee given the meters used and the block's two basefees. */
export function settleFee(
  offer: { cycles: MeterOffer; cells: MeterOffer },
  used: { cycles: bigint; cells: bigint },
  basefee: { cycle: bigint; cell: bigint },
): FeeSettlement {
  const cycles = settleMeter(offer.cycles, used.cycles, basefee.cycle, "cycle");
  const cells = settleMeter(offer.cells, used.cells, basefee.cell, "cell");
  const burned = cycles.burned + cells.burned;
  const tip = cycles.tip + cells.tip;
  const paid = burned + tip;
  return { cycles, cells, paid, burned, tip, refund: maxCharge(offer.cycles, offer.cells) - paid };
}

/**
 * Mempool ordering key of §6.4, from intrinsic costs only:
 * intrinsic_cycles × min(max_fee_per_cycle, basefee_cycle + tip_per_cycle)
 * + intrinsic_cells × min(max_fee_per_cell, basefee_cell + tip_per_cell).
 */
export function effectiveFee(
  offer: { cycles: MeterOffer; cells: MeterOffer },
  intrinsic: { cycles: bigint; cells: bigint },
  basefee: { cycle: bigint; cell: bigint },
): bigint {
  const unit = (o: MeterOffer, b: bigint) => {
    const wanted = b + o.maxPriorityFee;
    return o.maxFee < wanted ? o.maxFee : wanted;
  };
  return (
    intrinsic.cycles * unit(offer.cycles, basefee.cycle) + intrinsic.cells * unit(offer.cells, basefee.cell)
  );
}
