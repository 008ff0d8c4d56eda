import { backoffMs, type Logger } from '@support/kernel';
import { EventStore, RecordedEvent, Subscription } from './port';
import { formatPosition, Position } from './position';

export interface ConsumerHealth {
  name: string;
  /** `running`; `retrying` after an error, until a batch succeeds again; `stopped`. */
  status: 'running' | 'retrying' | 'stopped';
  /** Errors in a row (0 once a batch succeeds). */
  failures: number;
  /** Errors, and events handled, since the process started (GET /metrics). */
  failures_total: number;
  handled_total: number;
  last_error: string | null;
  /** The position after the last event handled. */
  position: string;
  /** Age of the oldest event received but not yet handled (0 when caught up): how far behind it is. */
  lag_ms: number;
  /** Projectors: events set aside because a read model cannot apply them, not yet skipped by an operator. */
  set_aside?: number;
}

/**
 * A subscription that survives its handler's errors: after an error it waits (capped
 * exponential backoff) and subscribes again after the last batch handled, so the failed batch
 * is delivered again. Handlers must be idempotent, as every consumer of the log is. Health says
 * whether it is running or retrying, and why.
 */
export class RetryingSubscription {
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly state: Omit<ConsumerHealth, 'lag_ms'>;
  /** When the oldest event not yet handled happened; null when none is waiting. */
  private pendingSince: number | null = null;

  constructor(
    private readonly events: EventStore,
    readonly name: string,
    private position: Position,
    private readonly handler: (batch: RecordedEvent[]) => Promise<void>,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
    private readonly backoff = { baseMs: 100, maxMs: 30_000 },
    private readonly now: () => number = Date.now,
  ) {
    this.state = { name, status: 'stopped', failures: 0, failures_total: 0, handled_total: 0, last_error: null, position: formatPosition(position) };
  }

  start(): void {
    this.stopped = false;
    this.state.status = this.state.failures ? 'retrying' : 'running';
    this.subscription = this.events.subscribe(
      this.position,
      async (batch) => {
        this.pendingSince ??= Date.parse(batch[0].metadata.occurred_at);
        await this.handler(batch);
        this.pendingSince = null;
        this.position = batch[batch.length - 1].position;
        this.state.position = formatPosition(this.position);
        this.state.handled_total += batch.length;
        // Good news, at info: the failures before it were warned of one by one.
        if (this.state.failures) this.log.info('consumer recovered', { consumer: this.name, after_failures: this.state.failures });
        this.state.failures = 0;
        this.state.status = 'running';
      },
      (err) => this.failed(err),
    );
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.subscription?.close();
    this.subscription = null;
    this.state.status = 'stopped';
  }

  health(): ConsumerHealth {
    return { ...this.state, lag_ms: this.pendingSince === null ? 0 : Math.max(0, this.now() - this.pendingSince) };
  }

  private failed(err: unknown): void {
    this.subscription = null;
    this.state.failures += 1;
    this.state.failures_total += 1;
    this.state.last_error = err instanceof Error ? err.message : String(err);
    this.state.status = 'retrying';
    if (this.stopped) return;
    const delay = backoffMs(this.state.failures, this.backoff);
    this.log.warn('consumer failed; retrying from its last position', {
      consumer: this.name,
      position: this.state.position,
      failures: this.state.failures,
      retry_in_ms: delay,
      error: this.state.last_error,
    });
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.start();
    }, delay);
    this.timer.unref?.();
  }
}
