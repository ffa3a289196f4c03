/**
 * The agreement rule for dealer logs (docs/consensus.md "Epoch transitions and resharing").
 *
 * A ceremony's result is a deterministic function of the set of signed dealer logs it is
 * finalized with; every node must finalize with the same set. In production the logs are put
 * on chain (a future System instruction) and the agreed set is "every log included before the
 * ceremony's deadline height, in block order"; until then the caller supplies that list.
 *
 * From the agreed list, `agreedLogs` keeps, for each of the ceremony's dealers, the first log
 * it signed over this ceremony (a later, different log of the same dealer is ignored, so the
 * block order decides and a dealer cannot swap its log), drops logs that do not decode, are
 * not signed by a dealer of this ceremony, or gave up (too many unacknowledged players), and
 * orders the rest by dealer (canonical key-byte order). The addon's finalization then uses the
 * first `info.required` of them whose dealings verify (dealer order again), so every node
 * derives the same output from the same list. Fewer than `required` usable logs: the
 * ceremony fails and the previous group stays in force.
 */
import type { DkgInfo } from "./info.ts";

/** Why an agreed log was not kept. */
export type LogExclusion = "malformed" | "unauthenticated" | "duplicate-dealer" | "too-many-reveals";

/** A kept log with what it says. */
export interface KeptLog {
  /** the signed log bytes */
  readonly log: Uint8Array;
  /** the dealer's 48-byte key */
  readonly dealer: Buffer;
  /** the dealer's position in `info.dealers` */
  readonly dealerIndex: number;
  /** players that acknowledged the dealing */
  readonly acks: readonly Buffer[];
  /** players whose dealing the log reveals publicly */
  readonly reveals: readonly Buffer[];
}

export interface AgreedLogs {
  /** usable candidates in dealer order (pass `kept.map(k => k.log)` to finalize) */
  readonly kept: readonly KeptLog[];
  /** positions (in the input list) of the logs dropped, with the reason */
  readonly excluded: readonly { readonly position: number; readonly reason: LogExclusion }[];
  /** at least `info.required` logs were kept (necessary, not sufficient, for success) */
  readonly enough: boolean;
}

/** Applies the agreement rule to the agreed list of signed dealer logs (in chain order). */
export function agreedLogs(info: DkgInfo, logs: readonly Uint8Array[]): AgreedLogs {
  const seen = new Set<string>();
  const kept: KeptLog[] = [];
  const excluded: { position: number; reason: LogExclusion }[] = [];
  logs.forEach((log, position) => {
    let summary: ReturnType<DkgInfo["native"]["checkLog"]>;
    try {
      summary = info.native.checkLog(Buffer.from(log));
    } catch {
      excluded.push({ position, reason: "malformed" });
      return;
    }
    if (summary === null) {
      excluded.push({ position, reason: "unauthenticated" });
      return;
    }
    const hex = summary.dealer.toString("hex");
    if (seen.has(hex)) {
      excluded.push({ position, reason: "duplicate-dealer" });
      return;
    }
    seen.add(hex);
    if (summary.tooManyReveals) {
      excluded.push({ position, reason: "too-many-reveals" });
      return;
    }
    kept.push({
      log,
      dealer: summary.dealer,
      dealerIndex: info.dealerIndex(summary.dealer),
      acks: summary.acks,
      reveals: summary.reveals,
    });
  });
  kept.sort((a, b) => a.dealerIndex - b.dealerIndex);
  return { kept, excluded, enough: kept.length >= info.required };
}
