import * as t from 'io-ts';
import { arrayOf, int, literal, nullable, oneOf, str, struct } from '@support/http/codec';
import { EXAMPLE_AT, EXAMPLE_ID, timestamp } from '@support/http/resources';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from './events';
import type { TicketDocument } from './projection';

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
  {
    title: 'ticket',
    example: {
      object: 'ticket',
      id: EXAMPLE_ID.ticket,
      number: 1042,
      type: 'problem',
      subject: 'Charged twice for the November invoice',
      description: 'The customer sees two identical charges of 49.00 EUR on 1 November.',
      status: 'open',
      priority: 'high',
      tags: ['billing'],
      assignee_id: 'usr_5521',
      team_id: 'team_billing',
      customer_id: EXAMPLE_ID.customer,
      category_id: null,
      source_conversation_id: EXAMPLE_ID.conversation,
      sla_status: 'active',
      sla_policy_id: 'sla_standard',
      first_response_at: null,
      sla_first_response_due_at: '2026-11-02T13:14:27.301Z',
      sla_next_response_due_at: null,
      sla_resolution_due_at: '2026-11-04T09:14:27.301Z',
      summary: null,
      resolved_at: null,
      closed_at: null,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
);
export type TicketResource = t.TypeOf<typeof TicketResource>;

export const toTicket = (d: TicketDocument): TicketResource => ({
  object: 'ticket',
  id: d.id,
  number: d.number,
  type: d.type,
  subject: d.subject,
  description: d.description ?? null,
  status: d.status,
  priority: d.priority,
  tags: d.tags ?? [],
  assignee_id: d.assignee_id ?? null,
  team_id: d.team_id ?? null,
  customer_id: d.customer_id ?? null,
  category_id: d.category_id ?? null,
  source_conversation_id: d.source_conversation_id ?? null,
  sla_status: d.sla_status ?? null,
  sla_policy_id: d.sla_policy_id ?? null,
  first_response_at: d.first_response_at ?? null,
  sla_first_response_due_at: d.sla_first_response_due_at ?? null,
  sla_next_response_due_at: d.sla_next_response_due_at ?? null,
  sla_resolution_due_at: d.sla_resolution_due_at ?? null,
  summary: d.summary ?? null,
  resolved_at: d.resolved_at ?? null,
  closed_at: d.closed_at ?? null,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
