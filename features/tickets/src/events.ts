import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';
import { SlaAtRisk, SlaBreached, TicketResponseRecorded } from './sla-events';

/** Operator interface: the ticket vocabulary the spec leaves open. */
export const TICKET_STATUSES = ['open', 'pending', 'on_hold', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_TYPES = ['question', 'incident', 'problem', 'task'] as const;

const keysOf = <V extends string>(values: readonly V[]) => Object.fromEntries(values.map((v) => [v, null])) as Record<V, null>;
export const TicketStatus = t.keyof(keysOf(TICKET_STATUSES));
export const TicketPriority = t.keyof(keysOf(TICKET_PRIORITIES));
export const TicketType = t.keyof(keysOf(TICKET_TYPES));
export type TicketStatus = t.TypeOf<typeof TicketStatus>;

/** Every field of the ticket resource (spec 2.9) but `object`, `id` and `updated_at`. */
const fields = {
  number: t.number,
  type: TicketType,
  subject: t.string,
  description: nullable(t.string),
  status: TicketStatus,
  priority: TicketPriority,
  tags: t.array(t.string),
  assignee_id: nullable(t.string),
  team_id: nullable(t.string),
  customer_id: nullable(t.string),
  category_id: nullable(t.string),
  source_conversation_id: nullable(t.string),
  sla_status: nullable(t.string),
  sla_policy_id: nullable(t.string),
  first_response_at: nullable(t.string),
  sla_first_response_due_at: nullable(t.string),
  sla_next_response_due_at: nullable(t.string),
  sla_resolution_due_at: nullable(t.string),
  summary: nullable(t.string),
  resolved_at: nullable(t.string),
  closed_at: nullable(t.string),
  created_at: t.string,
};

export const TicketCreated = eventCodec('ticket.created', t.type({ id: t.string, workspace_id: t.string, ...fields }));
export const TicketChanges = t.partial(fields);
export type TicketChanges = t.TypeOf<typeof TicketChanges>;
export const TicketUpdated = eventCodec('ticket.updated', t.type({ id: t.string, changes: TicketChanges }));
/** Recorded with the `ticket.updated` that moves a ticket into `resolved`. */
export const TicketResolved = eventCodec('ticket.resolved', t.type({ id: t.string, resolved_at: t.string }));

export const TicketEvent = t.union([TicketCreated, TicketUpdated, TicketResolved, TicketResponseRecorded, SlaAtRisk, SlaBreached]);
export type TicketEvent = t.TypeOf<typeof TicketEvent>;
