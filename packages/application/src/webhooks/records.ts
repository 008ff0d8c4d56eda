import { EventEmitter } from 'node:events';
import { Collection, Doc, ReadStore } from '@support/readstore';
import { Clock } from '../clock';
import { Scoped } from '../queries/read-models';

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
}

interface LeaseDoc extends Doc { expires_ms: number }

export const WEBHOOK_EVENTS = { name: 'webhook_events', indexes: [['workspace_id']] } as const;
export const DELIVERIES = { name: 'webhook_deliveries', indexes: [['workspace_id', 'endpoint_id'], ['status', 'next_retry_ms']] } as const;
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
  /** Wakes a dispatcher in this process when something becomes due. */
  readonly due = new EventEmitter();
  /** The change of each delivery being written now: later ones wait their turn. */
  private readonly updating = new Map<string, Promise<void>>();

  constructor(reads: ReadStore, private readonly clock: Clock) {
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

  /** A new delivery, due now. */
  async enqueue(delivery: Pick<DeliveryDoc, 'id' | 'workspace_id' | 'endpoint_id' | 'event_id' | 'event_type'>): Promise<void> {
    const now = this.clock.now();
    await this.deliveryDocs.insert({
      ...delivery, status: 'pending', attempt_count: 0, next_retry_ms: now.getTime(), next_retry_at: now.toISOString(),
      last_attempt_at: null, response_status: null, response_body: null, last_error: null, created_at: now.toISOString(),
    });
    this.due.emit('due');
  }

  /** The retry operation: one more attempt, now, whatever the delivery's state. */
  async retry(workspaceId: string, endpointId: string, id: string): Promise<boolean> {
    const doc = await this.deliveries.get(workspaceId, id);
    if (!doc || doc.endpoint_id !== endpointId) return false;
    const now = this.clock.now();
    await this.update(id, (fresh) => fresh && { ...fresh, status: 'pending', next_retry_ms: now.getTime(), next_retry_at: now.toISOString() });
    this.due.emit('due');
    return true;
  }

  /**
   * Rewrites a delivery from its current document, one change at a time per delivery in this
   * process: a retry and the booking of an attempt that end together both count (written from
   * the same earlier read, the later would undo the other, and the attempt number with it).
   * `change` gets null when the delivery does not exist; returning null writes nothing.
   */
  async update(id: string, change: (current: DeliveryDoc | null) => DeliveryDoc | null): Promise<void> {
    const write = (this.updating.get(id) ?? Promise.resolve()).then(async () => {
      const next = change(await this.deliveryDocs.get(id));
      if (next) await this.deliveryDocs.put(next);
    });
    const settled = write.catch(() => undefined);
    this.updating.set(id, settled);
    try {
      await write;
    } finally {
      if (this.updating.get(id) === settled) this.updating.delete(id);
    }
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
