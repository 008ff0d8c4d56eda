import { DISPATCHER_DURABLE, EVENTS_SUBJECT, fromBusMessage, LogConsumer, type Application, type Logger } from '@support/application';
import type { BusMessage, BusSubscription } from '@support/bus';
import { BusIntakeHealth } from './bus-intake-health';
import { Deliverer } from './deliverer';
import { Intake } from './intake';
import { Payloads } from './payloads';

/** Bus messages taken in at once by one dispatcher. */
const INTAKE_PULLS = 8;
/** How long a new delivery is left to the dispatcher that took its event in (then any may send it). */
const TAKE_OVER_AFTER_MS = 5000;

export interface DispatcherOptions {
  /**
   * Where events come from: `log` reads the event store from the dispatcher's own checkpoint
   * (one process, embedded default); `bus` is a competing consumer of what the relay
   * publishes (scale-out, NATS).
   */
  source: 'log' | 'bus';
}

/** Webhook delivery: intake of events, sending and retrying (the relay mails the notices). */
export class Dispatcher {
  private readonly intake: Intake;
  private readonly deliverer: Deliverer;
  private logConsumer: LogConsumer | null = null;
  private readonly busSubscriptions: BusSubscription[] = [];
  private readonly busHealth: BusIntakeHealth;

  constructor(
    private readonly app: Application,
    private readonly log: Logger,
    private readonly options: DispatcherOptions,
  ) {
    this.intake = new Intake(app, new Payloads(app.engines.events, app), options.source === 'log');
    this.busHealth = new BusIntakeHealth(() => app.clock.now().getTime());
    const { retryBaseMs, retryMaxMs } = app.config.webhooks;
    this.deliverer = new Deliverer(app, log, {
      policy: { baseMs: retryBaseMs, maxMs: retryMaxMs },
      // Competing dispatchers each send what their own intake took from the bus.
      takeOverAfterMs: options.source === 'bus' ? TAKE_OVER_AFTER_MS : 0,
    });
  }

  async start(): Promise<void> {
    if (this.options.source === 'log') {
      // The checkpoint follows what intake has recorded: a crash replays events, harmlessly.
      this.logConsumer = new LogConsumer(this.app.engines.events, this.app.engines.reads, 'dispatcher', (event) => this.intake.accept(event), this.log);
      await this.logConsumer.start();
    } else {
      // Intake waits on the store a few times per event: several pulls at once keep one
      // dispatcher's intake from being its bottleneck. The order events are taken in does not
      // matter: ids and payloads are derived from each event and its own stream.
      const handle = async (message: BusMessage) => {
        const event = fromBusMessage(message.data);
        this.busHealth.received(event);
        try {
          await this.intake.accept(event);
          await message.ack();
          this.busHealth.handled(event);
        } catch (err) {
          this.busHealth.failed(event, err);
          this.log.error('intake failed; redelivering', { event_id: message.id, error: String(err) });
          await message.nak(1000);
        }
      };
      const options = { durable: DISPATCHER_DURABLE, subject: EVENTS_SUBJECT, ackWaitMs: 30_000 };
      for (let i = 0; i < INTAKE_PULLS; i++) this.busSubscriptions.push(await this.app.engines.bus.consume(options, handle));
      this.busHealth.started();
    }
    this.deliverer.start();
  }

  health() {
    return this.options.source === 'bus' ? this.busHealth.health() : (this.logConsumer?.health() ?? null);
  }

  async stop(): Promise<void> {
    await this.logConsumer?.stop();
    await Promise.all(this.busSubscriptions.map((s) => s.close()));
    this.busHealth.stopped();
    await this.deliverer.stop();
  }
}
