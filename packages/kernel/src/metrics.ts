import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets in seconds, from a cached read (sub-millisecond) to a slow write. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** prom-client's `collect` option (called with the metric as `this` at each scrape), from a function taking the metric. */
const collected = <M>(collect?: (metric: M) => void | Promise<void>) =>
  collect
    ? {
        async collect(this: M) {
          await collect(this);
        },
      }
    : {};

/**
 * One process's Prometheus metrics, served at GET /metrics (prom-client). Each part registers its
 * own series here by name, once: asking again for a name gives the series already registered,
 * so two parts that count the same thing share it. Names follow Prometheus' conventions: base
 * units (`_seconds`), `_total` on counters, and `support_` before what is this platform's own.
 */
export class Metrics {
  readonly registry = new Registry();

  /** `processMetrics`: Node's own (CPU, memory, event-loop lag, GC), as every Node service exports them. */
  constructor(processMetrics = true) {
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** A counter; with `collect`, one kept elsewhere and read at each scrape (reset, then increased to it). */
  counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: (counter: Counter<L>) => void | Promise<void>,
  ): Counter<L> {
    return (
      (this.registry.getSingleMetric(name) as Counter<L> | undefined) ??
      new Counter<L>({ name, help, labelNames, registers: [this.registry], ...collected(collect) })
    );
  }

  /**
   * A counter over one label whose values are known beforehand: each of its series is exported
   * at 0 from the start. A series that first appears at 1 is no increase to Prometheus'
   * `increase()` or `rate()`, so an alert on the first endpoint disabled after a restart would miss it.
   */
  counterOf<L extends string>(name: string, help: string, label: L, values: readonly string[]): Counter<L> {
    const counter = this.counter(name, help, [label]);
    for (const value of values) counter.inc({ [label]: value } as Partial<Record<L, string>>, 0);
    return counter;
  }

  histogram<L extends string = never>(name: string, help: string, labelNames: readonly L[] = [], buckets = LATENCY_BUCKETS): Histogram<L> {
    return (
      (this.registry.getSingleMetric(name) as Histogram<L> | undefined) ?? new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  /** A gauge; with `collect`, its value is taken at each scrape (a queue's length, a consumer's lag). */
  gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = [], collect?: (gauge: Gauge<L>) => void | Promise<void>): Gauge<L> {
    return (
      (this.registry.getSingleMetric(name) as Gauge<L> | undefined) ??
      new Gauge<L>({ name, help, labelNames, registers: [this.registry], ...collected(collect) })
    );
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
