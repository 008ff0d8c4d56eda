import type { Logger } from '@support/application';
import type { Bus } from '@support/bus';
import { EventStore, formatPosition, parsePosition, START, Subscription } from '@support/eventstore';
import type { ReadStore } from '@support/readstore';
import { subjectOf, toBusMessage } from '@support/dispatcher';

const CHECKPOINT = 'relay';

/**
 * Every domain event, in log order, from the event store to the bus. The message id is the
 * event id, so a batch published again after a crash is dropped by the bus's dedup; the
 * checkpoint is saved only after the bus has accepted the batch.
 */
export class Relay {
  private subscription: Subscription | null = null;

  constructor(private readonly events: EventStore, private readonly reads: ReadStore, private readonly bus: Bus, private readonly log: Logger) {}

  async start(): Promise<void> {
    const saved = await this.reads.getCheckpoint(CHECKPOINT);
    const from = saved ? parsePosition(saved) : START;
    this.log.info('relay starting', { from: formatPosition(from) });
    this.subscription = this.events.subscribe(from, async (batch) => {
      for (const event of batch) await this.bus.publish(subjectOf(event), event.id, toBusMessage(event));
      await this.reads.setCheckpoint(CHECKPOINT, formatPosition(batch[batch.length - 1].position));
    }, (err) => this.log.error('relay stopped on an error; a restart resumes from the checkpoint', { error: String(err) }));
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }
}
