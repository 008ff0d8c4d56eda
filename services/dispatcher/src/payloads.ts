import type { Application } from '@support/application';
import type { EventStore, RecordedEvent } from '@support/eventstore';
import { aggregateId, type AnyProjection, type LoggedEvent, type Projection, ProjectedEvent } from '@support/projections';
import { conversationsProjection, messagesProjection, toConversation, toMessage } from '@support/conversations';
import { customersProjection, toCustomer } from '@support/customers';
import type { Doc } from '@support/readstore';
import { ticketsProjection, toTicket } from '@support/tickets';

interface PayloadSpec {
  projection: AnyProjection;
  /** The document the event is about. */
  target(event: ProjectedEvent): string;
  serialize(doc: Doc, event: ProjectedEvent): object;
  /** Fields that come from other streams (counters), taken from the read model. */
  crossStream?: readonly string[];
  /** The document is the event's alone: no need to read its stream. */
  eventAlone?: boolean;
}

/**
 * A payload typed by its read model's documents (the resource mappers take them without a
 * cast); the registry below holds them all alike (methods' parameters are bivariant). `serialize` gets the event delivered, which
 * need not be one its projection handles (`sla.at_risk` over the ticket).
 */
const payload = <D extends Doc, E extends LoggedEvent>(spec: {
  projection: Projection<D, E>;
  target(event: ProjectedEvent): string;
  serialize(doc: D, event: ProjectedEvent): object;
  crossStream?: readonly (keyof D & string)[];
  eventAlone?: boolean;
}): PayloadSpec => spec;

const conversation = payload({ projection: conversationsProjection, target: aggregateId, serialize: toConversation });
const customer = payload({
  projection: customersProjection,
  target: aggregateId,
  serialize: toCustomer,
  crossStream: ['conversation_count', 'first_contact_at', 'last_contact_at'],
});

const ticket = payload({ projection: ticketsProjection, target: aggregateId, serialize: toTicket });
/** Spec 6.1: the ticket resource plus the metric and the target at risk or missed. */
const sla = payload({
  projection: ticketsProjection,
  target: aggregateId,
  serialize: (d, e) => {
    const { sla_metric, sla_due_at } = e.data as { sla_metric: string; sla_due_at: string };
    return { ...toTicket(d), sla_metric, sla_due_at };
  },
});

/** Webhook event type → how its `data` is made. Types not listed are not delivered. */
export const PAYLOADS: Record<string, PayloadSpec> = {
  'conversation.created': conversation,
  'conversation.updated': conversation,
  'conversation.closed': conversation,
  'message.created': payload({ projection: messagesProjection, target: (e) => (e.data as { id: string }).id, serialize: toMessage, eventAlone: true }),
  'customer.created': customer,
  'customer.updated': customer,
  /** The customer the lead was recorded on, right after the capture. */
  'lead.captured': customer,
  /** The conversation right after the hand-over (assignee no longer `ai`). */
  'agent.escalated': conversation,
  'ticket.created': ticket,
  'ticket.updated': ticket,
  'ticket.resolved': ticket,
  'sla.at_risk': sla,
  'sla.breached': sla,
};

/** Folds remembered per document (the most recently used; each is a few KB at most). */
const FOLDS_KEPT = 10_000;

/**
 * The resource as it stood right after the event: the event's own stream folded up to it
 * through the same pure projection that keeps the read model. Deterministic, so a redelivery
 * or a replay gives the same payload. The fold is remembered per document, so the next event
 * of a busy stream reads only what came after the last one (not its whole history each time).
 * Counters kept from other streams (`crossStream`) are the read model's at intake time.
 */
export class Payloads {
  private readonly folds = new Map<string, { revision: number; doc: Doc | null }>();

  constructor(
    private readonly events: EventStore,
    private readonly app: Application,
  ) {}

  async build(event: RecordedEvent): Promise<Record<string, unknown> | null> {
    const spec = PAYLOADS[event.type];
    if (!spec) return null;
    const id = spec.target(event);
    let doc = spec.eventAlone ? this.fold(spec, id, null, [event], event.revision) : await this.foldStream(spec, id, event);
    if (!doc) return null;
    if (spec.crossStream) {
      const current = await this.app.engines.reads.collection(spec.projection.collection).get(id);
      if (current) for (const field of spec.crossStream) doc = { ...doc, [field]: current[field] };
    }
    return spec.serialize(doc, event) as Record<string, unknown>;
  }

  /** The document folded from its stream up to the event, from the remembered fold when it is before the event. */
  private async foldStream(spec: PayloadSpec, id: string, event: RecordedEvent): Promise<Doc | null> {
    const key = `${spec.projection.collection.name}\u0000${id}\u0000${event.stream}`;
    const known = this.folds.get(key);
    // Taken in out of order (several pulls at once), or a replay: fold from the start.
    const from = known && known.revision <= event.revision ? known : { revision: -1, doc: null };
    const doc =
      from.revision === event.revision
        ? from.doc
        : this.fold(spec, id, from.doc, await this.events.readStream(event.stream, from.revision + 1), event.revision);
    this.folds.delete(key);
    this.folds.set(key, { revision: event.revision, doc });
    if (this.folds.size > FOLDS_KEPT) this.folds.delete(this.folds.keys().next().value!);
    return doc;
  }

  private fold(spec: PayloadSpec, id: string, start: Doc | null, history: readonly RecordedEvent[], upTo: number): Doc | null {
    let doc = start;
    for (const e of history) {
      if (e.revision > upTo) break;
      const projected = e as unknown as ProjectedEvent;
      if (spec.projection.handles.includes(projected.type) && spec.projection.targets(projected).includes(id)) doc = spec.projection.apply(doc, projected);
    }
    return doc;
  }
}
