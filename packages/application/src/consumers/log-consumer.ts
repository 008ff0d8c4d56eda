import { ConsumerHealth, EventStore, formatPosition, parsePosition, RecordedEvent, RetryingSubscription, START } from '@support/eventstore';
import { CheckpointWriter, ReadStore } from '@support/readstore';
import { Logger } from '../log';

/**
 * An idempotent consumer of the event log (relay, dispatcher intake, notifier, reactors):
 * resumes after its checkpoint, handles events in order, and saves the checkpoint after them
 * (throttled: a crash replays a little, harmlessly). A handler error does not stop it: the
 * batch is retried after a capped exponential backoff, and health reports it meanwhile.
 */
export class LogConsumer {
  private subscription: RetryingSubscription | null = null;
  private readonly checkpoint: CheckpointWriter;

  constructor(
    private readonly events: EventStore,
    private readonly reads: ReadStore,
    private readonly name: string,
    private readonly handle: (event: RecordedEvent) => Promise<void>,
    private readonly log: Logger,
  ) {
    this.checkpoint = new CheckpointWriter(reads, name);
  }

  async start(): Promise<void> {
    const saved = await this.reads.getCheckpoint(this.name);
    const from = saved ? parsePosition(saved) : START;
    this.log.debug('log consumer starting', { consumer: this.name, from: formatPosition(from) });
    this.subscription = new RetryingSubscription(this.events, this.name, from, async (batch) => {
      for (const event of batch) await this.handle(event);
      await this.checkpoint.save(formatPosition(batch[batch.length - 1].position));
    }, this.log);
    this.subscription.start();
  }

  health(): ConsumerHealth | null {
    return this.subscription?.health() ?? null;
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    await this.checkpoint.flush();
  }
}
