/**
 * Prometheus metrics of a validator (served on the RPC server's `GET /metrics`, the devnet's
 * text exposition; docs/validator.md lists the series). Fed by the voter's hooks
 * ({@link VoterMetrics}), the consensus message tap of `startValidator`, the p2p node's peer
 * count and the node's own finalization and evidence handling.
 */
import type { Message, VoteKind, VoterMetrics } from "@cowboy/consensus";
import { Counter, Gauge, Histogram, METRICS_CONTENT_TYPE, Registry } from "../devnet/metrics.ts";

/** Buckets (seconds) of the certificate latency histogram. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ValidatorMetrics {
  readonly registry = new Registry();
  readonly contentType = METRICS_CONTENT_TYPE;
  readonly view = this.registry.register(new Gauge("cowboy_validator_view", "the voter's current view"));
  readonly finalizedHeight = this.registry.register(
    new Gauge("cowboy_validator_finalized_height", "height of the newest finalized block"),
  );
  readonly finalizedView = this.registry.register(
    new Gauge("cowboy_validator_finalized_view", "view of the newest finalized block"),
  );
  readonly votesSent = this.registry.register(
    new Counter("cowboy_validator_votes_sent_total", "votes this validator signed and sent, by kind"),
  );
  readonly votesReceived = this.registry.register(
    new Counter("cowboy_validator_votes_received_total", "votes received from other validators, by kind"),
  );
  readonly proposals = this.registry.register(
    new Counter("cowboy_validator_proposals_total", "blocks this validator proposed as leader"),
  );
  readonly certificates = this.registry.register(
    new Counter("cowboy_validator_certificates_total", "certificates formed or accepted, by kind"),
  );
  readonly nullifications = this.registry.register(
    new Counter(
      "cowboy_validator_nullifications_total",
      "views that ended in a nullification certificate (no block)",
    ),
  );
  readonly certificateLatency = this.registry.register(
    new Histogram(
      "cowboy_validator_certificate_latency_seconds",
      "time from entering a view to its notarization or nullification certificate",
      LATENCY_BUCKETS,
    ),
  );
  readonly finalizationLatency = this.registry.register(
    new Histogram(
      "cowboy_validator_finalization_latency_seconds",
      "time from entering a view to the finalization certificate of its block",
      LATENCY_BUCKETS,
    ),
  );
  readonly peers = this.registry.register(new Gauge("cowboy_validator_peers", "connected libp2p peers"));
  readonly epoch = this.registry.register(
    new Gauge("cowboy_validator_epoch", "the epoch whose voter runs (views restart at 1 in each)"),
  );
  readonly voting = this.registry.register(
    new Gauge("cowboy_validator_voting", "1 if this validator votes in the current epoch, 0 if it follows"),
  );
  readonly committedTxs = this.registry.register(
    new Counter("cowboy_validator_committed_transactions_total", "transactions in blocks finalized here"),
  );
  readonly equivocations = this.registry.register(
    new Counter(
      "cowboy_validator_equivocations_detected_total",
      "conflicting statements of one validator in one view detected (evidence made)",
    ),
  );
  readonly evidenceSubmitted = this.registry.register(
    new Counter(
      "cowboy_validator_evidence_submitted_total",
      "submitEvidence transactions this validator sent",
    ),
  );

  constructor() {
    // series that may stay at zero for a long time are exposed from the start
    for (const c of [this.nullifications, this.proposals, this.equivocations, this.evidenceSubmitted])
      c.inc(0);
  }

  /** The voter's hooks. */
  readonly voter: VoterMetrics = {
    onView: (view) => this.view.set(view),
    onFinalized: (view) => this.finalizedView.set(view),
    onCertificate: (kind: VoteKind, _view: number, sinceViewMs: number | null) => {
      this.certificates.inc(1, { kind });
      if (kind === "nullify") this.nullifications.inc();
      if (sinceViewMs === null) return;
      if (kind === "finalize") this.finalizationLatency.observe(sinceViewMs / 1_000);
      else this.certificateLatency.observe(sinceViewMs / 1_000);
    },
  };

  /** The consensus message tap of `startValidator`. */
  readonly tap = {
    sent: (m: Message) => {
      if (m.type === "vote") this.votesSent.inc(1, { kind: m.vote.kind });
      else if (m.type === "propose") {
        this.proposals.inc();
        this.votesSent.inc(1, { kind: m.vote.kind });
      }
    },
    received: (_from: number, m: Message) => {
      if (m.type === "vote" || m.type === "propose") this.votesReceived.inc(1, { kind: m.vote.kind });
    },
  };

  text(): string {
    return this.registry.text();
  }
}
