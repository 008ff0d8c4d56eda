import { type Application, type Logger } from '@support/application';
import type { Collection } from '@support/readstore';
import {
  type DeliveryDoc,
  endpointsOf,
  type WebhookEndpointDocument,
  WebhookEndpoints,
  webhookEndpointsOf,
  webhookGuardOf,
  WebhookRecords,
  webhookRecordsOf,
} from '@support/webhook-endpoints';
import { attemptOutcome, dispatcherMetrics } from './metrics';
import { GuardOptions, MAX_ATTEMPTS, retryDelayMs, RetryPolicy, SendExtra, SendResult } from '@support/webhooks';
import { sendAttempt } from './send-attempt';
import { persist } from './persist';

export interface DelivererOptions {
  policy: RetryPolicy;
  /** Attempts in flight at once (each waits up to 10 s on its receiver, send-attempt.ts). */
  concurrency?: number;
  /** Longest sleep between scans for due retries. */
  maxIdleMs?: number;
  /**
   * With several dispatchers: how long a new delivery (no attempt yet) is left to the process
   * whose intake recorded it before a scan elsewhere takes it over. Each then sends its own
   * intake's deliveries without racing the others for them, and a busy or dead one's backlog
   * is still taken over. 0 (the default) with one dispatcher.
   */
  takeOverAfterMs?: number;
  extra?: SendExtra;
}

/** How long a delivery whose attempt another taker holds is left alone before it is looked at again. */
const HELD_RECHECK_MS = 1000;
/** New deliveries kept in memory at most; past that they wait in the store for a scan. */
const MAX_READY = 5000;

/**
 * Sends due deliveries. What this process's intake records is handed over at once (`due` with
 * the doc); a scan of pending deliveries by due time finds the rest: retries, and what a
 * restart or another dispatcher left. Each attempt's lease makes sure no attempt goes out
 * twice, across processes; the exact bytes sent are signed; the outcome is booked with the
 * next attempt's schedule. Everything it needs is in the read store, so a restart picks up
 * retries that fell due meanwhile.
 */
export class Deliverer {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly active = new Map<string, Promise<void>>();
  /** To attempt next, in order: handed over by intake or found due by a scan. */
  private readonly ready = new Map<string, DeliveryDoc>();
  /** Deliveries whose next attempt was held by another taker, and when to look again. */
  private readonly held = new Map<string, number>();
  private scanWanted = true;
  private nextScanAt = 0;
  private readonly onDue = (doc?: DeliveryDoc) => {
    if (!doc) this.scanWanted = true;
    else if (this.ready.size < MAX_READY && !this.active.has(doc.id)) this.ready.set(doc.id, doc);
    this.wake();
  };

  /** The deliveries and events it sends, and the endpoints it sends them to. */
  private readonly records: WebhookRecords;
  private readonly endpoints: { all: Collection<WebhookEndpointDocument>; commands: WebhookEndpoints; guard: GuardOptions };

  constructor(
    private readonly app: Application,
    private readonly log: Logger,
    private readonly options: DelivererOptions,
  ) {
    this.records = webhookRecordsOf(app);
    this.endpoints = { all: endpointsOf(app).all, commands: webhookEndpointsOf(app), guard: webhookGuardOf(app) };
    this.metrics = dispatcherMetrics(app, {
      inFlight: () => this.active.size,
      // Counted at each scrape, whole: an autoscaler reads the backlog's size from them.
      due: () => this.records.deliveryDocs.count({ status: 'pending' }, { field: 'next_retry_ms', value: this.app.clock.now().getTime() }),
      pending: () => this.records.deliveryDocs.count({ status: 'pending' }),
    });
  }

  private readonly metrics: ReturnType<typeof dispatcherMetrics>;

  start(): void {
    this.running = true;
    this.records.due.on('due', this.onDue);
    this.loop = this.run().catch((err) => this.log.error('deliverer stopped', { error: String(err) }));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.records.due.off('due', this.onDue);
    this.wake();
    await this.loop;
    await Promise.all(this.active.values());
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** What the once-a-minute `webhook deliveries` log line reports (the operator's gauge of the backlog). */
  private readonly stats = { since: 0, attempts: 0, failed: 0, due: 0 };

  private report(now: number): void {
    if (this.stats.since === 0) this.stats.since = now;
    if (now - this.stats.since < 60_000) return;
    this.log.info('webhook deliveries', {
      due_now: this.stats.due,
      in_flight: this.active.size,
      attempts_last_minute: this.stats.attempts,
      failed_last_minute: this.stats.failed,
    });
    Object.assign(this.stats, { since: now, attempts: 0, failed: 0 });
  }

  private async run(): Promise<void> {
    const maxIdle = this.options.maxIdleMs ?? 1000;
    while (this.running) {
      // A turn of the event loop between rounds: the store's calls may settle without one, and
      // a round that finds work at once must never keep requests and timers waiting.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const now = this.app.clock.now().getTime();
      // A scan only when asked or due, not after every attempt: with a backlog, rescanning
      // the store per finished attempt cost more than the attempts.
      if (this.scanWanted || now >= this.nextScanAt) {
        this.scanWanted = false;
        this.nextScanAt = now + maxIdle;
        try {
          await this.scan(now);
        } catch (err) {
          this.log.error('scanning deliveries failed; retrying', { error: String(err) });
        }
      }
      this.fill();
      const sleep = Math.max(5, this.nextScanAt - this.app.clock.now().getTime());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleep);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  /** Pending deliveries due now, of the first 200 by due time, join the ready ones. */
  private async scan(now: number): Promise<void> {
    const takeOver = this.options.takeOverAfterMs ?? 0;
    const { items } = await this.records.deliveryDocs.find({
      where: { status: 'pending' },
      orderBy: { field: 'next_retry_ms', direction: 'asc' },
      limit: 200,
    });
    // Held ones another taker has since sent are never looked at again: forget them once due.
    for (const [id, until] of this.held) if (until <= now) this.held.delete(id);
    this.stats.due = items.filter((d) => d.next_retry_ms !== null && d.next_retry_ms <= now).length;
    this.report(now);
    for (const d of items) {
      if (d.next_retry_ms === null || this.active.has(d.id) || this.ready.has(d.id)) continue;
      if (d.next_retry_ms > now) {
        this.nextScanAt = Math.min(this.nextScanAt, d.next_retry_ms);
        break;
      }
      if ((this.held.get(d.id) ?? 0) > now) continue;
      // Another dispatcher's intake recorded it a moment ago: that one is sending it.
      if (d.next_retry_ms > now - takeOver && heldByIntake(d)) continue;
      this.ready.set(d.id, d);
    }
  }

  /** Starts attempts from the ready ones while there is room. */
  private fill(): void {
    const concurrency = this.options.concurrency ?? 64;
    const now = this.app.clock.now().getTime();
    for (const [id, doc] of this.ready) {
      if (this.active.size >= concurrency) break;
      this.ready.delete(id);
      // One attempt at a time per delivery: the booking of the one out decides what is next.
      if (this.active.has(id) || (this.held.get(id) ?? 0) > now) continue;
      this.launch(doc);
    }
  }

  private launch(d: DeliveryDoc): void {
    let outcome: 'done' | 'held' = 'done';
    const attempt = this.attempt(d)
      .then(
        (o) => {
          outcome = o;
        },
        (err) => this.log.error('delivery attempt failed unexpectedly', { delivery_id: d.id, error: String(err) }),
      )
      .finally(() => {
        this.active.delete(d.id);
        // A held attempt changed nothing: looking again at once would only find it held.
        if (outcome === 'held') this.held.set(d.id, this.app.clock.now().getTime() + HELD_RECHECK_MS);
        else this.held.delete(d.id);
        if (this.ready.size > 0) this.wake();
      });
    this.active.set(d.id, attempt);
  }

  /** One attempt of a delivery; `held` when another taker has it (nothing was done). */
  private async attempt(doc: DeliveryDoc): Promise<'done' | 'held'> {
    const { app } = this;
    const attempt = doc.attempt_count + 1;
    const lease = await this.records.lease(doc.id, attempt);
    if (lease === 'held') return 'held';
    if (lease === 'expired') {
      // Its holder died mid-attempt: book the attempt as failed rather than send it again.
      await this.book(
        doc,
        attempt,
        {
          ok: false,
          status: null,
          responseBody: null,
          error: 'attempt interrupted by a dispatcher restart; outcome unknown',
          retryAfterMs: null,
          durationMs: 0,
        },
        true,
      );
      return 'done';
    }
    const endpoint = await this.endpoints.all.get(doc.endpoint_id);
    // A ping is sent even to a disabled endpoint: that is how one checks it works again.
    if (!endpoint || (endpoint.status !== 'enabled' && doc.event_type !== 'ping')) {
      await this.records.cancel(doc, endpoint ? 'endpoint disabled' : 'endpoint deleted');
      this.metrics.canceled.inc();
      return 'done';
    }
    const event = await this.records.eventDocs.get(doc.event_id);
    if (!event) throw new Error(`event ${doc.event_id} of delivery ${doc.id} is missing`);
    const result = await sendAttempt(doc, attempt, endpoint, event, Math.floor(app.clock.now().getTime() / 1000), this.endpoints.guard, this.options.extra);
    // The endpoint counts it first (the disable rule sees every failure), then the delivery
    // books it: a crash in between leaves an expired lease, booked as interrupted, uncounted.
    const report = { delivery_id: doc.id, ok: result.ok, gone: result.status === 410, error: result.ok ? null : describe(result) };
    await this.persist('counting a delivery attempt', { delivery_id: doc.id }, () => this.endpoints.commands.recordAttempt(endpoint, report));
    await this.book(doc, attempt, result);
    return 'done';
  }

  /** Books an attempt's outcome on the delivery and schedules what comes next. */
  private async book(doc: DeliveryDoc, attempt: number, result: SendResult, interrupted = false): Promise<void> {
    const final = result.ok || result.status === 410 || attempt >= MAX_ATTEMPTS;
    // One clock reading for both: the next attempt is exactly its delay after this one.
    const at = this.app.clock.now().getTime();
    const next = final ? null : at + retryDelayMs(attempt, this.options.policy, result.retryAfterMs);
    const outcome = { ok: result.ok, status: result.status, responseBody: result.responseBody, error: result.error, nextRetryMs: next, attemptedAt: at };
    await this.persist('booking a delivery attempt', { delivery_id: doc.id }, () => this.records.book(doc, outcome));
    // Its next attempt is this process's to find: a scan when it falls due.
    if (next !== null && next < this.nextScanAt) {
      this.nextScanAt = next;
      this.wake();
    }
    this.stats.attempts += 1;
    if (!result.ok) this.stats.failed += 1;
    const kind = interrupted ? 'interrupted' : attemptOutcome(result);
    this.metrics.attempts.inc({ outcome: kind });
    if (!interrupted) this.metrics.attemptSeconds.observe({ outcome: kind }, result.durationMs / 1000);
    if (!result.ok)
      this.log.info('delivery attempt failed', {
        delivery_id: doc.id,
        attempt,
        status: result.status,
        error: result.error,
        next_retry_at: next && new Date(next).toISOString(),
      });
  }

  /** Bookkeeping that must not be lost to a passing store error (persist.ts); given up only once the dispatcher stops. */
  private persist(what: string, fields: Record<string, unknown>, write: () => Promise<unknown>): Promise<void> {
    return persist(write, { what, fields, log: this.log, stopped: () => !this.running });
  }
}

/**
 * A delivery as its intake recorded it, never attempted nor rescheduled: the dispatcher that
 * took its event in has it in hand. Pings (recorded by the API) and retries requested through
 * the API are any dispatcher's to send at once.
 */
const heldByIntake = (d: DeliveryDoc) => d.attempt_count === 0 && d.event_type !== 'ping' && d.next_retry_ms === Date.parse(d.created_at);

const describe = (r: SendResult) => r.error ?? `HTTP ${r.status}`;
