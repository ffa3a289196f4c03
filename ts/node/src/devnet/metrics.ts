/**
 * Prometheus metrics of the devnet, in the text exposition format (version 0.0.4) served
 * on `GET /metrics`. A small registry of our own (gauges, counters and one histogram) —
 * enough for the node's handful of series without a dependency.
 */

type Labels = Readonly<Record<string, string>>;

function labelText(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return "";
  const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
  return `{${keys.map((k) => `${k}="${esc(labels[k] as string)}"`).join(",")}}`;
}

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly type: "gauge" | "counter" | "histogram";
  lines(): string[];
}

export class Gauge implements Metric {
  readonly type = "gauge";
  readonly name: string;
  readonly help: string;
  private readonly values = new Map<string, number>();

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  set(value: number | bigint, labels: Labels = {}): void {
    this.values.set(labelText(labels), Number(value));
  }

  get(labels: Labels = {}): number | undefined {
    return this.values.get(labelText(labels));
  }

  lines(): string[] {
    return [...this.values].map(([l, v]) => `${this.name}${l} ${num(v)}`);
  }
}

export class Counter implements Metric {
  readonly type = "counter";
  readonly name: string;
  readonly help: string;
  private readonly values = new Map<string, number>();

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(by = 1, labels: Labels = {}): void {
    if (by < 0) throw new RangeError("a counter only goes up");
    const k = labelText(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelText(labels)) ?? 0;
  }

  lines(): string[] {
    return [...this.values].map(([l, v]) => `${this.name}${l} ${num(v)}`);
  }
}

export class Histogram implements Metric {
  readonly type = "histogram";
  readonly name: string;
  readonly help: string;
  private readonly bounds: readonly number[];
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(name: string, help: string, bounds: readonly number[]) {
    this.name = name;
    this.help = help;
    this.bounds = [...bounds].sort((a, b) => a - b);
    this.counts = this.bounds.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= (this.bounds[i] as number)) this.counts[i] = (this.counts[i] as number) + 1;
    }
  }

  get observations(): number {
    return this.count;
  }

  lines(): string[] {
    const out = this.bounds.map((b, i) => `${this.name}_bucket{le="${num(b)}"} ${this.counts[i]}`);
    out.push(`${this.name}_bucket{le="+Inf"} ${this.count}`);
    out.push(`${this.name}_sum ${num(this.sum)}`, `${this.name}_count ${this.count}`);
    return out;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    if (this.metrics.some((m) => m.name === metric.name))
      throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.push(metric);
    return metric;
  }

  /** The text exposition of every metric. */
  text(): string {
    const out: string[] = [];
    for (const m of this.metrics) {
      out.push(
        `# HELP ${m.name} ${m.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`,
        `# TYPE ${m.name} ${m.type}`,
      );
      out.push(...m.lines());
    }
    return `${out.join("\n")}\n`;
  }
}

/** Content type of {@link Registry.text}. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The devnet's series. */
export class DevnetMetrics {
  readonly registry = new Registry();
  readonly height = this.registry.register(new Gauge("cowboy_block_height", "height of the newest block"));
  readonly blocks = this.registry.register(
    new Counter("cowboy_blocks_total", "blocks produced by this process"),
  );
  readonly txs = this.registry.register(
    new Counter("cowboy_transactions_total", "transactions included in blocks by this process"),
  );
  readonly txRate = this.registry.register(
    new Gauge("cowboy_transactions_per_second", "transactions per second over the last 10 seconds"),
  );
  readonly basefee = this.registry.register(
    new Gauge("cowboy_basefee", "basefee the next block charges, per meter (cycle, cell)"),
  );
  readonly mempoolTxs = this.registry.register(
    new Gauge("cowboy_mempool_transactions", "transactions in the mempool"),
  );
  readonly mempoolBytes = this.registry.register(
    new Gauge("cowboy_mempool_bytes", "bytes of transactions in the mempool"),
  );
  readonly mempoolRejects = this.registry.register(
    new Counter("cowboy_mempool_rejected_total", "transactions the mempool refused, by reason"),
  );
  readonly blockSeconds = this.registry.register(
    new Histogram(
      "cowboy_block_execution_seconds",
      "time to execute and commit one block",
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    ),
  );
  readonly blockUsage = this.registry.register(
    new Gauge("cowboy_block_used", "cycles and cells used by the newest block"),
  );
  /** (time ms, tx count) of recent blocks, for the rate */
  private readonly recent: Array<[number, number]> = [];

  /** Records a produced block. `nowMs` comes from the caller's clock. */
  onBlock(
    b: { height: bigint; txs: number; seconds: number; cyclesUsed: bigint; cellsUsed: bigint },
    nowMs: number,
  ): void {
    this.height.set(b.height);
    this.blocks.inc();
    this.txs.inc(b.txs);
    this.blockSeconds.observe(b.seconds);
    this.blockUsage.set(b.cyclesUsed, { meter: "cycle" });
    this.blockUsage.set(b.cellsUsed, { meter: "cell" });
    this.recent.push([nowMs, b.txs]);
    while (this.recent.length > 0 && (this.recent[0] as [number, number])[0] < nowMs - 10_000)
      this.recent.shift();
    const total = this.recent.reduce((s, [, n]) => s + n, 0);
    this.txRate.set(total / 10);
  }

  onBasefees(cycle: bigint, cell: bigint): void {
    this.basefee.set(cycle, { meter: "cycle" });
    this.basefee.set(cell, { meter: "cell" });
  }

  /** The mempool's metrics hook. */
  mempool() {
    return {
      onSize: (txs: number, bytes: number) => {
        this.mempoolTxs.set(txs);
        this.mempoolBytes.set(bytes);
      },
      onReject: (code: string) => this.mempoolRejects.inc(1, { reason: code }),
    };
  }
}
