import { join } from 'node:path';
import type { Application, Logger } from '@support/application';
import type { BusSubscription } from '@support/bus';
import { formatPosition, parsePosition, RecordedEvent, START, Subscription } from '@support/eventstore';
import { createMailer } from '@support/webhooks';
import { Deliverer } from './deliverer';
import { Intake } from './intake';
import { Notifier } from './notifier';
import { Payloads } from './payloads';
import { DISPATCHER_DURABLE, EVENTS_SUBJECT, fromBusMessage } from './subjects';

const CHECKPOINT = 'dispatcher';

export interface DispatcherOptions {
  /**
   * Where events come from: `log` reads the event store from the dispatcher's own checkpoint
   * (one process, embedded default); `bus` is a competing consumer of what the relay
   * publishes (scale-out, NATS).
   */
  source: 'log' | 'bus';
  /** Mail workspace notices from this process (run it in exactly one). */
  notify: boolean;
}

/** Webhook delivery: intake of events, sending and retrying, and (optionally) notices. */
export class Dispatcher {
  private readonly intake: Intake;
  private readonly deliverer: Deliverer;
  private readonly notifier: Notifier | null;
  private logSubscription: Subscription | null = null;
  private busSubscription: BusSubscription | null = null;

  constructor(private readonly app: Application, private readonly log: Logger, private readonly options: DispatcherOptions) {
    this.intake = new Intake(app, new Payloads(app.engines.events, app));
    const { retryBaseMs, retryMaxMs } = app.config.webhooks;
    this.deliverer = new Deliverer(app, log, { policy: { baseMs: retryBaseMs, maxMs: retryMaxMs } });
    this.notifier = options.notify ? new Notifier(app, createMailer({ smtpUrl: app.config.smtpUrl, outboxDir: join(app.config.dataDir, 'outbox') }), log) : null;
  }

  async start(): Promise<void> {
    if (this.options.source === 'log') {
      const saved = await this.app.engines.reads.getCheckpoint(CHECKPOINT);
      this.logSubscription = this.app.engines.events.subscribe(saved ? parsePosition(saved) : START, async (batch) => {
        for (const event of batch) await this.intake.accept(event);
        // Saved only after intake has recorded the batch: a crash replays it, harmlessly.
        await this.app.engines.reads.setCheckpoint(CHECKPOINT, formatPosition(batch[batch.length - 1].position));
      }, (err) => this.log.error('dispatcher intake stopped; a restart resumes it', { error: String(err) }));
    } else {
      this.busSubscription = await this.app.engines.bus.consume({ durable: DISPATCHER_DURABLE, subject: EVENTS_SUBJECT, ackWaitMs: 30_000 }, async (message) => {
        try {
          await this.intake.accept(fromBusMessage(message.data) as RecordedEvent);
          await message.ack();
        } catch (err) {
          this.log.error('intake failed; redelivering', { event_id: message.id, error: String(err) });
          await message.nak(1000);
        }
      });
    }
    this.deliverer.start();
    await this.notifier?.start();
  }

  async stop(): Promise<void> {
    await this.logSubscription?.close();
    await this.busSubscription?.close();
    await this.deliverer.stop();
    await this.notifier?.stop();
  }
}
