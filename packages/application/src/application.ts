import { join } from 'node:path';
import { GroundedResponder, LlmResponder, Responder } from '@support/agent';
import { formatPosition, parsePosition, Position } from '@support/eventstore';
import { AgentConfigs } from './agent/configs';
import { KnowledgeFeed } from './agent/knowledge-feed';
import { AgentTurns } from './agent/turns';
import { execute } from './commands/execute';
import { articleAggregate, articleStream } from './commands/import-kinds';
import { ALL_PROJECTIONS, CHECKPOINT, CheckpointWatch, Projector, ProjectionWatch, readModelCheckpoint } from '@support/projections';
import type { BusSubscription } from '@support/bus';
import { authenticator } from './auth/authenticate';
import { Clock, IdSource, systemClock, ulidIds } from './clock';
import { ApiKeys } from './commands/keys';
import { Conversations } from './commands/conversations';
import { WebhookEndpoints } from './commands/webhook-endpoints';
import { TicketActivity } from './commands/ticket-activity';
import { WebhookRecords } from './webhooks/records';
import { Customers } from './commands/customers';
import { Deps } from './commands/execute';
import { Imports } from './commands/imports';
import { Reservations } from './commands/reservations';
import { Tags } from './commands/tags';
import { Workspaces } from './commands/workspaces';
import { Config } from './config';
import { Engines, openEngines } from './engines';
import { IdempotencyStore } from './idempotency/store';
import { Logger } from './log';
import { ReadModels } from './queries/read-models';
import { CounterStore, MemoryCounterStore, SharedCounterStore } from './ratelimit/counters';
import { Leases } from './workers/leases';
import { RateLimiter } from './ratelimit/limiter';

/** Where projectors announce their checkpoints (outside the bus's durable subjects). */
const CHECKPOINT_SIGNAL = 'signals.checkpoint';

export interface ApplicationOptions {
  config: Config;
  log: Logger;
  clock?: Clock;
  ids?: IdSource;
  engines?: Engines;
  counters?: CounterStore;
  /** Run the projector in this process (standalone); otherwise learn the projectors' checkpoints from their signals. */
  projector: boolean;
  /** Count rate limits in the read store, shared by every API instance (scale-out); default: in this process. */
  sharedLimits?: boolean;
  /** The agent's answer writer; default: the LLM when configured, else the grounded responder. */
  responder?: Responder;
}

/** Everything above the ports, wired once per process. */
export class Application {
  readonly config: Config;
  readonly log: Logger;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly engines: Engines;
  readonly reads: ReadModels;
  readonly workspaces: Workspaces;
  readonly keys: ApiKeys;
  readonly customers: Customers;
  readonly tags: Tags;
  readonly imports: Imports;
  readonly conversations: Conversations;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly ticketActivity: TicketActivity;
  readonly webhookRecords: WebhookRecords;
  readonly limiter: RateLimiter;
  readonly idempotency: IdempotencyStore;
  readonly projector: Projector | null;
  readonly authenticate;
  readonly agentConfigs: AgentConfigs;
  /** The knowledge index; started by the processes that answer agent calls (`listen`). */
  readonly knowledge: KnowledgeFeed;
  readonly agentTurns: AgentTurns;
  /** Leases in the read store (relay, SLA monitor, read models' projectors). */
  readonly leases: Leases;
  private readonly watch: ProjectionWatch;
  private signals: Promise<BusSubscription | null> | null = null;

  constructor(options: ApplicationOptions) {
    this.config = options.config;
    this.log = options.log;
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? ulidIds(this.clock);
    this.engines = options.engines ?? openEngines(options.config);
    const deps: Deps = { events: this.engines.events, clock: this.clock, ids: this.ids };
    const reservations = new Reservations(deps);
    this.workspaces = new Workspaces(deps, reservations);
    this.keys = new ApiKeys(deps, this.workspaces);
    this.customers = new Customers(deps, reservations);
    this.tags = new Tags(deps, reservations);
    this.imports = new Imports(deps, this.workspaces);
    this.reads = new ReadModels(this.engines.reads);
    // A conversation on a kind of channel belongs to the workspace's newest channel of that kind.
    this.conversations = new Conversations(
      deps,
      this.customers,
      async (ws, type) => (await this.reads.channels.find(ws, { where: { type }, limit: 1 })).items[0]?.id ?? null,
    );
    this.webhookEndpoints = new WebhookEndpoints(deps, this.webhookGuard, async (ws) => (await this.reads.webhookEndpoints.find(ws, {})).items.length);
    this.webhookRecords = new WebhookRecords(this.engines.reads, this.clock);
    this.ticketActivity = new TicketActivity(deps);
    const counters =
      options.counters ??
      (options.sharedLimits ? new SharedCounterStore(this.engines.reads, this.log.child({ component: 'rate-limit' })) : new MemoryCounterStore());
    this.limiter = new RateLimiter(counters, this.clock, options.config.rateLimitScale);
    this.leases = new Leases(this.engines.reads, this.clock, options.config.leaseTtlMs);
    this.idempotency = new IdempotencyStore(this.engines.reads, this.clock);
    this.authenticate = authenticator(this.reads, this.clock);
    this.projector = options.projector
      ? new Projector(this.engines.events, this.engines.reads, ALL_PROJECTIONS, this.log.child({ component: 'projector' }), {
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
        [[CHECKPOINT], ALL_PROJECTIONS.map((p) => readModelCheckpoint(p.collection.name))],
        this.engines.bus.shared ? 1000 : 20,
      );
    this.agentConfigs = new AgentConfigs(deps);
    const system = { workspaceId: null, actor: 'system', requestId: null };
    this.knowledge = new KnowledgeFeed(
      this.engines.events,
      async (workspaceId, id, indexed) => {
        await execute(deps, { ...system, workspaceId }, articleAggregate, articleStream(id), { type: 'mark_indexed', indexed });
      },
      this.log.child({ component: 'knowledge' }),
      options.config.agentReranker,
      join(options.config.dataDir, 'vectors'),
    );
    const grounded = new GroundedResponder();
    const llm = options.config.llm;
    const responder = options.responder ?? (llm ? new LlmResponder({ ...llm, fallback: grounded, log: this.log.child({ component: 'llm' }) }) : grounded);
    this.agentTurns = new AgentTurns(deps, {
      workspaces: this.workspaces,
      configs: this.agentConfigs,
      conversations: this.conversations,
      customers: this.customers,
      reads: this.reads,
      knowledge: this.knowledge,
      responder,
      clock: this.clock,
      log: this.log.child({ component: 'agent' }),
    });
  }

  /** The SSRF guard's settings, for registration and for every delivery. */
  get webhookGuard() {
    return { allowPrivateNetworks: this.config.webhooks.allowPrivateNetworks, allowedCidrs: this.config.webhooks.allowedCidrs };
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
    if (this.watch instanceof CheckpointWatch) await this.listenForCheckpoints(this.watch);
    const ok = await this.watch.waitFor(target, this.config.readYourWritesTimeoutMs);
    if (!ok) this.log.warn('read models lag behind a write; answering without waiting longer', { timeout_ms: this.config.readYourWritesTimeoutMs });
    return ok;
  }

  async stop(): Promise<void> {
    await (await this.signals)?.close();
    await this.projector?.stop();
    await this.engines.close();
  }
}
