import { comparePositions, type ConsumerHealth, formatPosition, type Position, type RecordedEvent, START } from '@support/eventstore';

/**
 * The health of a dispatcher's intake from the bus, in the shape every log consumer reports
 * (/healthz `consumers`, the `support_consumer_*` metrics), named `dispatcher` as the log-fed
 * intake is: failures in a row and since the start, the last error, the last event taken in,
 * and how far behind it is (the age of the oldest event received and not yet taken in, or
 * failing). Without it a dispatcher whose intake failed for minutes still said `ok`.
 */
export class BusIntakeHealth {
  private failures = 0;
  private failuresTotal = 0;
  private handledTotal = 0;
  private lastError: string | null = null;
  /** The furthest event taken in (pulls run side by side, so they finish out of order). */
  private position: Position = START;
  private running = false;
  /** When each event being taken in happened, by event id. */
  private readonly pending = new Map<string, number>();
  /** When the oldest event that failed since the last success happened. */
  private failingSince: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  started(): void {
    this.running = true;
  }

  stopped(): void {
    this.running = false;
  }

  received(event: RecordedEvent): void {
    this.pending.set(event.id, Date.parse(event.metadata.occurred_at));
  }

  handled(event: RecordedEvent): void {
    this.pending.delete(event.id);
    this.handledTotal += 1;
    this.failures = 0;
    this.failingSince = null;
    if (comparePositions(event.position, this.position) > 0) this.position = event.position;
  }

  /** The message goes back to the bus (to this dispatcher or another): still behind until a success. */
  failed(event: RecordedEvent, err: unknown): void {
    const at = this.pending.get(event.id) ?? Date.parse(event.metadata.occurred_at);
    this.pending.delete(event.id);
    this.failures += 1;
    this.failuresTotal += 1;
    this.lastError = err instanceof Error ? err.message : String(err);
    this.failingSince = Math.min(this.failingSince ?? at, at);
  }

  health(): ConsumerHealth {
    let oldest = this.failingSince ?? Infinity;
    for (const at of this.pending.values()) oldest = Math.min(oldest, at);
    return {
      name: 'dispatcher',
      status: !this.running ? 'stopped' : this.failures > 0 ? 'retrying' : 'running',
      failures: this.failures,
      failures_total: this.failuresTotal,
      handled_total: this.handledTotal,
      last_error: this.lastError,
      position: formatPosition(this.position),
      lag_ms: oldest === Infinity ? 0 : Math.max(0, this.now() - oldest),
    };
  }
}
