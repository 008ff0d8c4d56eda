import * as t from 'io-ts';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '@support/domain';
import type { TicketDoc } from '@support/application';
import { arrayOf, int, literal, nullable, oneOf, str } from '../codec/primitives';
import { struct } from '../codec/struct';
import { timestamp } from './common';

const maybe = () => nullable(str());
const maybeTime = () => nullable(timestamp());

/** Spec 2.9: read-only, entered by the operator's import. Untyped fields are strings or null. */
export const TicketResource = struct(
  {
    object: literal('ticket'),
    id: str(),
    number: int({ min: 1 }),
    type: oneOf(TICKET_TYPES),
    subject: str(),
    description: maybe(),
    status: oneOf(TICKET_STATUSES),
    priority: oneOf(TICKET_PRIORITIES),
    tags: arrayOf(str()),
    assignee_id: maybe(),
    team_id: maybe(),
    customer_id: maybe(),
    category_id: maybe(),
    source_conversation_id: maybe(),
    sla_status: maybe(),
    sla_policy_id: maybe(),
    first_response_at: maybeTime(),
    sla_first_response_due_at: maybeTime(),
    sla_next_response_due_at: maybeTime(),
    sla_resolution_due_at: maybeTime(),
    summary: maybe(),
    resolved_at: maybeTime(),
    closed_at: maybeTime(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  { title: 'ticket' },
);
export type TicketResource = t.TypeOf<typeof TicketResource>;

const orNull = (v: unknown) => (v ?? null) as string | null;

export const toTicket = (d: TicketDoc): TicketResource => ({
  object: 'ticket',
  id: d.id,
  number: d.number as number,
  type: d.type as TicketResource['type'],
  subject: d.subject as string,
  description: orNull(d.description),
  status: d.status as TicketResource['status'],
  priority: d.priority as TicketResource['priority'],
  tags: (d.tags ?? []) as string[],
  assignee_id: orNull(d.assignee_id),
  team_id: orNull(d.team_id),
  customer_id: orNull(d.customer_id),
  category_id: orNull(d.category_id),
  source_conversation_id: orNull(d.source_conversation_id),
  sla_status: orNull(d.sla_status),
  sla_policy_id: orNull(d.sla_policy_id),
  first_response_at: orNull(d.first_response_at),
  sla_first_response_due_at: orNull(d.sla_first_response_due_at),
  sla_next_response_due_at: orNull(d.sla_next_response_due_at),
  sla_resolution_due_at: orNull(d.sla_resolution_due_at),
  summary: orNull(d.summary),
  resolved_at: orNull(d.resolved_at),
  closed_at: orNull(d.closed_at),
  created_at: d.created_at as string,
  updated_at: d.updated_at as string,
});
