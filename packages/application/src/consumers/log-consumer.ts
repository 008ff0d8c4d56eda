import { ConsumerHealth, EventStore, formatPosition, parsePosition, RecordedEvent, RetryingSubscription, START } from '@support/eventstore';
import { CheckpointWriter, ReadStore } from '@support/readstore';
import { EngineUnavailable, type Logger } from '@support/kernel';

export interface LogConsumerOptions {
  /** Backoff between retries after an error (default 100 ms doubling to 30 s). */
  backoff?: { baseMs: number; maxMs: number };
  /**
   * Skip an event that failed the same way this many times in a row, logged with its
   * position. Only for consumers whose events may be lost without harm (a notice e-mail);
   * never for projections or the webhook path, which retry until the fault clears. An engine
   * that is down (EngineUnavailable: the mail server unreached) is waited for, never counted.
   */
  skipPoisonAfter?: number;
}

/** What a consumer that may skip events adds to its health: how many it skipped. */
export type LogConsumerHealth = ConsumerHealth & { skipped?: number };

/**
 * An idempotent consumer of the event log (relay, dispatcher intake, notifier, reactors):
 * resumes after its checkpoint, handles events in order, and saves the checkpoint after them
 * (throttled: a crash replays a little, harmlessly). A handler error does not stop it: the
 * batch is retried after a capped exponential backoff, and health reports it meanwhile.
 */
export class LogConsumer {
  private subscription: RetryingSubscription | null = null;
  private readonly checkpoint: CheckpointWriter;
  /** The last handler error, to tell a poison event (the same failure again) from a passing fault. */
  private lastFailure: { eventId: string; error: string; count: number } | null = null;
  private skipped = 0;

  constructor(
    private readonly events: EventStore,
    private readonly reads: ReadStore,
    private readonly name: string,
    private readonly handle: (event: RecordedEvent) => Promise<void>,
    private readonly log: Logger,
    private readonly options: LogConsumerOptions = {},
  ) {
    this.checkpoint = new CheckpointWriter(reads, name);
  }

  async start(): Promise<void> {
    const saved = await this.reads.getCheckpoint(this.name);
    const from = saved ? parsePosition(saved) : START;
    this.log.debug('log consumer starting', { consumer: this.name, from: formatPosition(from) });
    // Said aloud: on a log kept without its read store, a webhook or notice consumer sends again what it sent before.
    if (!saved && (await this.events.readAll(START, 1)).length > 0)
      this.log.warn('log consumer has no checkpoint: it handles the whole log from its first event', {
        consumer: this.name,
        see: 'a read store lost or replaced while the log was kept re-sends past webhooks and notices (docs/operating/backup.md)',
      });
    this.subscription = new RetryingSubscription(
      this.events,
      this.name,
      from,
      async (batch) => {
        for (const event of batch) {
          try {
            await this.handle(event);
          } catch (err) {
            if (!this.isPoison(event, err)) throw err;
          }
        }
        this.lastFailure = null;
        await this.checkpoint.save(formatPosition(batch[batch.length - 1].position));
      },
      this.log,
      this.options.backoff,
    );
    this.subscription.start();
  }

  /** Counts identical failures of one event; true (and logged) once it is to be skipped. */
  private isPoison(event: RecordedEvent, err: unknown): boolean {
    const limit = this.options.skipPoisonAfter;
    if (limit === undefined) return false;
    if (err instanceof EngineUnavailable) {
      this.lastFailure = null;
      return false;
    }
    const error = err instanceof Error ? err.message : String(err);
    const last = this.lastFailure;
    const count = last && last.eventId === event.id && last.error === error ? last.count + 1 : 1;
    this.lastFailure = { eventId: event.id, error, count };
    if (count < limit) return false;
    this.skipped += 1;
    this.lastFailure = null;
    this.log.error('poison event skipped after failing the same way repeatedly', {
      consumer: this.name,
      position: formatPosition(event.position),
      stream: event.stream,
      revision: event.revision,
      event_id: event.id,
      type: event.type,
      failures: count,
      error,
    });
    return true;
  }

  health(): LogConsumerHealth | null {
    const health = this.subscription?.health() ?? null;
    return health && this.options.skipPoisonAfter !== undefined ? { ...health, skipped: this.skipped } : health;
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    await this.checkpoint.flush();
  }
}
