import { formatPosition, parsePosition, Position, upcastingEvents } from '@support/eventstore';
import { CHECKPOINT, CheckpointWatch, Projector, ProjectionWatch, readModelCheckpoint } from '@support/projections';
import type { BusSubscription } from '@support/bus';
import { Clock, IdSource, systemClock, ulidIds } from './clock';
import { Deps } from './commands/execute';
import { Reservations } from './commands/reservations';
import { Config } from './config';
import { Engines, openEngines } from './engines';
import type { Catalog } from './feature';
import { type Logger, Metrics } from '@support/kernel';
import { meteredEvents } from './metered-events';
import { Leases } from './workers/leases';

/** Where projectors announce their checkpoints (outside the bus's durable subjects). */
const CHECKPOINT_SIGNAL = 'signals.checkpoint';

export interface ApplicationOptions {
  config: Config;
  catalog: Catalog;
  log: Logger;
  clock?: Clock;
  ids?: IdSource;
  engines?: Engines;
  /** Where this process's metrics are registered (GET /metrics); default: a registry of its own. */
  metrics?: Metrics;
  /** Run the projector in this process (standalone); otherwise learn the projectors' checkpoints from their signals. */
  projector: boolean;
}

/**
 * A process's runtime over the ports: its configuration, engines (appends measured), clock and
 * ids, metrics, the catalog, unique claims, leases, the projector when it runs one, and
 * read-your-writes. It builds no feature's commands or read models: each feature builds its
 * own over it when a process first uses them (`perApplication`), so a process builds only what
 * it runs. What only the API runs (rate limits, the idempotency cache) is built beside it.
 */
export class Application {
  readonly config: Config;
  readonly log: Logger;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly engines: Engines;
  /** What the features put together: the processes' features build on it (a conversation's channel, say). */
  readonly catalog: Catalog;
  /** This process's Prometheus metrics: each part registers its series (GET /metrics). */
  readonly metrics: Metrics;
  /** What commands run on: the event store, the clock and the id source. */
  readonly deps: Deps;
  /** Unique claims (a customer's e-mail, a tag's name) as streams of their own. */
  readonly reservations: Reservations;
  readonly projector: Projector | null;
  /** Leases in the read store (relay, SLA monitor, read models' projectors). */
  readonly leases: Leases;
  private readonly watch: ProjectionWatch;
  private signals: Promise<BusSubscription | null> | null = null;

  constructor(options: ApplicationOptions) {
    this.config = options.config;
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? ulidIds(this.clock);
    this.metrics = options.metrics ?? new Metrics();
    this.catalog = options.catalog;
    const engines = options.engines ?? openEngines(options.config, options.catalog.eventTypes, options.log);
    // The same engines, with the event store's appends measured (its close still closes it).
    this.engines = {
      ...engines,
      events: upcastingEvents(meteredEvents(engines.events, this.metrics), options.catalog.upcasters ?? []),
      close: () => engines.close(),
    };
    const deps: Deps = { events: this.engines.events, clock: this.clock, ids: this.ids };
    this.deps = deps;
    const reservations = new Reservations(deps);
    this.reservations = reservations;
    this.leases = new Leases(this.engines.reads, this.clock, options.config.leaseTtlMs, this.engines.bus);
    this.projector = options.projector
      ? new Projector(this.engines.events, this.engines.reads, options.catalog.projections, this.log.child({ component: 'projector' }), {
          onCheckpoint: this.signalCheckpoint,
          setAsideAfter: options.config.projectionSetAsideAfter,
        })
      : null;
    // Without a projector here: the one-for-all projector's checkpoint, or every read model's.
    // Signals cross processes only on a shared bus; on the in-process one a short poll is all there is.
    this.watch =
      this.projector ??
      new CheckpointWatch(
        this.engines.reads,
        [[CHECKPOINT], options.catalog.projections.map((p) => readModelCheckpoint(p.collection.name))],
        this.engines.bus.shared ? 1000 : 20,
      );
  }

  async start(): Promise<void> {
    await this.projector?.start();
  }

  /** Readiness: can each engine be reached now? `ok`, or why not (each probe bounded to 2 s). */
  async engineChecks(): Promise<{ event_store: string; read_store: string; bus: string }> {
    const probe = async (op: () => Promise<unknown>): Promise<string> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([op(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000)))]);
        return 'ok';
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      } finally {
        clearTimeout(timer);
      }
    };
    const [event_store, read_store, bus] = await Promise.all([
      probe(() => this.engines.events.head()),
      probe(() => this.engines.reads.getCheckpoint(CHECKPOINT)),
      probe(() => this.engines.bus.ping()),
    ]);
    return { event_store, read_store, bus };
  }

  /** Tells API processes that a projector's checkpoint moved (a hint: a lost one costs a slow poll). */
  readonly signalCheckpoint = (checkpoint: string, position: Position): void => {
    this.engines.bus.signal(CHECKPOINT_SIGNAL, { checkpoint, position: formatPosition(position) }).catch(() => undefined);
  };

  /** Listens to the projectors' signals from the first write on (the admin CLI and workers never connect for them). */
  private listenForCheckpoints(watch: CheckpointWatch): Promise<BusSubscription | null> {
    this.signals ??= (async () => {
      try {
        // Listening first, then reading: a checkpoint that moves in between is heard.
        const subscription = await this.engines.bus.listen(CHECKPOINT_SIGNAL, (data) => {
          const d = data as { checkpoint?: unknown; position?: unknown };
          if (typeof d?.checkpoint === 'string' && typeof d.position === 'string') watch.heard(d.checkpoint, parsePosition(d.position));
        });
        await watch.refresh().catch(() => undefined);
        return subscription;
      } catch (err) {
        // The bus is down: waits fall back to polling; the next write tries to listen again.
        this.log.warn('cannot listen for checkpoint signals; polling the checkpoints meanwhile', { error: String(err) });
        this.signals = null;
        return null;
      }
    })();
    return this.signals;
  }

  /**
   * Read-your-writes: wait until the read models include `position` (or, after a command that
   * wrote nothing, everything written so far), bounded by the configured timeout: false when it ran out.
   */
  async settle(position: Position | null): Promise<boolean> {
    const target = position ?? (await this.engines.events.head());
    const ok = await this.projectedPast(target, this.config.readYourWritesTimeoutMs);
    if (!ok)
      this.log.warn('read models lag behind a write; answering without waiting longer', {
        position: formatPosition(target),
        timeout_ms: this.config.readYourWritesTimeoutMs,
      });
    return ok;
  }

  /** Whether the read models include `position`, waiting at most `timeoutMs` for them to. */
  async projectedPast(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.watch instanceof CheckpointWatch) await this.listenForCheckpoints(this.watch);
    return this.watch.waitFor(position, timeoutMs);
  }

  async stop(): Promise<void> {
    await (await this.signals)?.close();
    await this.projector?.stop();
    await this.leases.close();
    await this.engines.close();
  }
}
