import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail, ImportCommand, importedFields, ownedBy, uniqueTags } from '@support/domain';
import { TicketChanges, TicketEvent } from './events';
import { TicketInput } from './input';
import { signalKey } from './sla-events';

type Created = Extract<TicketEvent, { type: 'ticket.created' }>['data'];
export type TicketState =
  | { exists: false }
  /** `last_response_at`, `sla_signals`: what replies and SLA signals recorded (see sla.ts). */
  | ({ exists: true; last_response_at: string | null; sla_signals: Record<string, true> } & Created);

/** `next_number`: the workspace's next ticket number, used only when a new ticket has none. */
export type TicketCommand = ImportCommand<TicketInput> & { next_number: number | null };

export const ticketDecider: Decider<TicketCommand, TicketEvent, TicketState> = {
  initialState: { exists: false },
  decide(command, state) {
    const fields = importedFields(TicketInput, command.input);
    if (E.isLeft(fields)) return fields;
    const given = fields.right;
    const { at } = command;
    if (!state.exists) {
      const number = given.number ?? command.next_number;
      if (number === null) return fail('validation', 'a new ticket needs a number');
      const status = given.status ?? 'open';
      return E.right([
        {
          type: 'ticket.created',
          data: {
            id: command.id,
            workspace_id: command.workspace_id,
            number,
            type: given.type ?? 'question',
            subject: given.subject,
            description: given.description ?? null,
            status,
            priority: given.priority ?? 'normal',
            tags: uniqueTags(given.tags ?? []),
            assignee_id: given.assignee_id ?? null,
            team_id: given.team_id ?? null,
            customer_id: given.customer_id ?? null,
            category_id: given.category_id ?? null,
            source_conversation_id: given.source_conversation_id ?? null,
            sla_status: given.sla_status ?? null,
            sla_policy_id: given.sla_policy_id ?? null,
            first_response_at: given.first_response_at ?? null,
            sla_first_response_due_at: given.sla_first_response_due_at ?? null,
            sla_next_response_due_at: given.sla_next_response_due_at ?? null,
            sla_resolution_due_at: given.sla_resolution_due_at ?? null,
            summary: given.summary ?? null,
            // A ticket that starts resolved or closed says when, unless the file does.
            resolved_at: given.resolved_at ?? (status === 'resolved' ? at : null),
            closed_at: given.closed_at ?? (status === 'closed' ? at : null),
            created_at: given.created_at ?? at,
          },
        },
      ]);
    }
    const owned = ownedBy('ticket', state, command.workspace_id);
    if (E.isLeft(owned)) return owned;
    const requested: TicketChanges = { ...given, ...(given.tags !== undefined ? { tags: uniqueTags(given.tags) } : {}) };
    const changes = changedFields(state, requested as Partial<Created>) as TicketChanges;
    // Moving into resolved or closed stamps the time, unless the file gives it.
    if (changes.status === 'resolved' && (given.resolved_at ?? at) !== state.resolved_at) changes.resolved_at = given.resolved_at ?? at;
    if (changes.status === 'closed' && (given.closed_at ?? at) !== state.closed_at) changes.closed_at = given.closed_at ?? at;
    if (Object.keys(changes).length === 0) return E.right([]);
    const events: TicketEvent[] = [{ type: 'ticket.updated', data: { id: state.id, changes } }];
    if (changes.status === 'resolved')
      events.push({ type: 'ticket.resolved', data: { id: state.id, resolved_at: changes.resolved_at ?? state.resolved_at ?? at } });
    return E.right(events);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ticket.created':
        return { exists: true, ...event.data, last_response_at: null, sla_signals: {} };
      case 'ticket.updated':
        return state.exists ? { ...state, ...event.data.changes } : state;
      case 'ticket.resolved':
        return state.exists ? { ...state, resolved_at: event.data.resolved_at } : state;
      case 'ticket.response_recorded':
        return state.exists ? { ...state, last_response_at: event.data.responded_at } : state;
      case 'sla.at_risk':
      case 'sla.breached': {
        if (!state.exists) return state;
        const key = signalKey(event.type === 'sla.at_risk' ? 'at_risk' : 'breached', event.data.sla_metric, event.data.sla_due_at);
        return { ...state, sla_signals: { ...state.sla_signals, [key]: true } };
      }
    }
  },
};
