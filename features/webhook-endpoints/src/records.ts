import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Collection, Doc, ReadStore } from '@support/readstore';
import { type Application, Clock, perApplication, Scoped } from '@support/application';

/** An event as recorded in the /events log and sent to endpoints (spec 2.15, 6.2). */
export interface WebhookEventDoc extends Doc {
  workspace_id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

export interface DeliveryDoc extends Doc {
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  /** Due time in ms, for the dispatcher's scan; null when nothing is scheduled. */
  next_retry_ms: number | null;
  next_retry_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  /** Why the last attempt failed without a response (timeout, refused address…). */
  last_error: string | null;
  created_at: string;
  /**
   * Changes at every scheduling decision (enqueue, retry operation, booked outcome): an
   * attempt books its schedule only if the one it was taken under still stands, so a retry
   * requested while it was in flight is not overwritten.
   */
  schedule_id?: string;
  /** The trace context of the intake that recorded it: each attempt's span continues that trace. */
  traceparent?: string;
}

/** What one attempt found out; the delivery's other fields belong to other writers. */
export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's status; null when there was no answer. */
  status: number | null;
  responseBody: string | null;
  error: string | null;
  /** When to try again; null when the delivery is done. */
  nextRetryMs: number | null;
  /** When it was booked, in ms (`last_attempt_at`): the time `nextRetryMs` was reckoned from. */
  attemptedAt: number;
}

interface LeaseDoc extends Doc {
  expires_ms: number;
}

export const WEBHOOK_EVENTS = { name: 'webhook_events', indexes: [['workspace_id']] } as const;
export const DELIVERIES = {
  name: 'webhook_deliveries',
  indexes: [
    ['workspace_id', 'endpoint_id'],
    ['status', 'next_retry_ms'],
  ],
} as const;
const LEASES = { name: 'webhook_delivery_leases' } as const;

/** How long one attempt may hold its lease: the 10 s acknowledgement time with a margin. */
export const LEASE_MS = 60_000;

/**
 * The /events log and the deliveries: operational records the dispatcher keeps in the read
 * store (not domain history). Inserts are insert-if-absent with deterministic ids, so a
 * redelivered event records nothing twice.
 */
export class WebhookRecords {
  readonly events: Scoped<WebhookEventDoc>;
  readonly deliveries: Scoped<DeliveryDoc>;
  readonly eventDocs: Collection<WebhookEventDoc>;
  readonly deliveryDocs: Collection<DeliveryDoc>;
  private readonly leases: Collection<LeaseDoc>;
  /**
   * Wakes a dispatcher in this process: `due` with a new delivery (its to send), or with
   * nothing when a retry made one due (its scan finds it).
   */
  readonly due = new EventEmitter();

  constructor(
    reads: ReadStore,
    private readonly clock: Clock,
  ) {
    this.eventDocs = reads.collection<WebhookEventDoc>(WEBHOOK_EVENTS);
    this.deliveryDocs = reads.collection<DeliveryDoc>(DELIVERIES);
    this.leases = reads.collection<LeaseDoc>(LEASES);
    this.events = new Scoped(this.eventDocs);
    this.deliveries = new Scoped(this.deliveryDocs);
    this.due.setMaxListeners(0);
  }

  async recordEvent(doc: WebhookEventDoc): Promise<void> {
    await this.eventDocs.insert(doc);
  }

  /** A new delivery, due now: handed to this process's dispatcher, if it runs one (`due` with the doc). */
  async enqueue(delivery: Pick<DeliveryDoc, 'id' | 'workspace_id' | 'endpoint_id' | 'event_id' | 'event_type' | 'traceparent'>): Promise<void> {
    const now = this.clock.now();
    const { traceparent, ...fields } = delivery;
    const doc: DeliveryDoc = {
      ...fields,
      ...(traceparent ? { traceparent } : {}),
      status: 'pending',
      attempt_count: 0,
      next_retry_ms: now.getTime(),
      next_retry_at: now.toISOString(),
      last_attempt_at: null,
      response_status: null,
      response_body: null,
      last_error: null,
      created_at: now.toISOString(),
      schedule_id: randomUUID(),
    };
    // Recorded before (an event taken in twice): whoever has it, sends it.
    if (await this.deliveryDocs.insert(doc)) this.due.emit('due', doc);
  }

  /** The retry operation: one more attempt, now, whatever the delivery's state. */
  async retry(workspaceId: string, endpointId: string, id: string): Promise<boolean> {
    const doc = await this.deliveries.get(workspaceId, id);
    if (!doc || doc.endpoint_id !== endpointId) return false;
    const now = this.clock.now();
    // Only the schedule: an attempt in flight still books its outcome (and its count).
    await this.deliveryDocs.update(id, { status: 'pending', next_retry_ms: now.getTime(), next_retry_at: now.toISOString(), schedule_id: randomUUID() });
    this.due.emit('due');
    return true;
  }

  /**
   * Books attempt `doc.attempt_count + 1` of `doc` (the delivery as it was when the attempt
   * was taken). The outcome's fields are always written, once per attempt; the next schedule
   * only if no retry was requested meanwhile (then that retry's schedule stands). False when
   * the attempt was booked already.
   */
  async book(doc: DeliveryDoc, outcome: AttemptOutcome): Promise<boolean> {
    const result = {
      attempt_count: doc.attempt_count + 1,
      last_attempt_at: new Date(outcome.attemptedAt).toISOString(),
      response_status: outcome.status,
      response_body: outcome.responseBody,
      last_error: outcome.ok ? null : outcome.error,
    };
    const schedule = {
      status: (outcome.ok ? 'succeeded' : outcome.nextRetryMs === null ? 'failed' : 'pending') as DeliveryStatus,
      next_retry_ms: outcome.nextRetryMs,
      next_retry_at: outcome.nextRetryMs === null ? null : new Date(outcome.nextRetryMs).toISOString(),
      schedule_id: randomUUID(),
    };
    const taken = { attempt_count: doc.attempt_count };
    if (await this.deliveryDocs.update(doc.id, { ...result, ...schedule }, { ...taken, schedule_id: doc.schedule_id ?? null })) return true;
    return this.deliveryDocs.update(doc.id, result, taken);
  }

  /** The endpoint is gone or disabled: nothing more is sent, unless a retry was requested meanwhile. */
  async cancel(doc: DeliveryDoc, reason: string): Promise<void> {
    await this.deliveryDocs.update(
      doc.id,
      { status: 'canceled', next_retry_ms: null, next_retry_at: null, last_error: reason, schedule_id: randomUUID() },
      {
        attempt_count: doc.attempt_count,
        schedule_id: doc.schedule_id ?? null,
      },
    );
  }

  /**
   * Takes attempt `attempt` of a delivery for this process. Only one taker ever gets an
   * attempt, so no attempt is sent twice; a lease left by a process that died shows as
   * `expired`, and the caller books that attempt as interrupted.
   */
  async lease(deliveryId: string, attempt: number): Promise<'taken' | 'held' | 'expired'> {
    const id = `${deliveryId}:${attempt}`;
    const now = this.clock.now().getTime();
    if (await this.leases.insert({ id, expires_ms: now + LEASE_MS })) return 'taken';
    const lease = await this.leases.get(id);
    return lease && lease.expires_ms > now ? 'held' : 'expired';
  }
}

/** The application's webhook records, one per application: its `due` signal joins the intake to the deliverer of the same process. */
export const webhookRecordsOf = perApplication((app: Application) => new WebhookRecords(app.engines.reads, app.clock));
