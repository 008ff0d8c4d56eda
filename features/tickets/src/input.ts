import * as t from 'io-ts';
import { ID_PREFIX, input } from '@support/domain';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from './events';

const { among, closed, exactly, isoTime, orNull, prefixedId, text, texts, whole } = input;

const maybeText = () => orNull(text({ blank: true }));
const maybeTime = () => orNull(isoTime());

/**
 * A ticket as an import file gives it: shaped like the resource (spec 2.9). Only `subject` is
 * required; `id`, `number` and `created_at` are kept when given. `object` and `updated_at` are
 * accepted so an API response can be imported again; `updated_at` is the import's own time.
 */
export const TicketInput = closed(
  'ticket',
  { subject: text() },
  {
    id: prefixedId(ID_PREFIX.ticket),
    object: exactly('ticket'),
    number: whole({ min: 1 }),
    type: among(TICKET_TYPES),
    description: maybeText(),
    status: among(TICKET_STATUSES),
    priority: among(TICKET_PRIORITIES),
    tags: texts({ max: 100 }),
    assignee_id: maybeText(),
    team_id: maybeText(),
    customer_id: maybeText(),
    category_id: maybeText(),
    source_conversation_id: maybeText(),
    sla_status: maybeText(),
    sla_policy_id: maybeText(),
    first_response_at: maybeTime(),
    sla_first_response_due_at: maybeTime(),
    sla_next_response_due_at: maybeTime(),
    sla_resolution_due_at: maybeTime(),
    summary: maybeText(),
    resolved_at: maybeTime(),
    closed_at: maybeTime(),
    created_at: isoTime(),
    updated_at: isoTime(),
  },
);
export type TicketInput = t.TypeOf<typeof TicketInput>;
