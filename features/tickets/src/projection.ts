import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { TicketEvent } from './events';
import { signalKey } from './sla-events';

/** Indexes serve the list filters of GET /tickets. */
export const TICKETS = {
  name: 'tickets',
  indexes: [
    ['workspace_id'],
    ['workspace_id', 'status'],
    ['workspace_id', 'priority'],
    ['workspace_id', 'type'],
    ['workspace_id', 'customer_id'],
    ['workspace_id', 'assignee_id'],
    ['workspace_id', 'source_conversation_id'],
  ],
} as const;

/** A ticket as the read model holds it, with the SLA monitor's bookkeeping. */
export type TicketDocument = Doc &
  Extract<TicketEvent, { type: 'ticket.created' }>['data'] & {
    updated_at: string;
    resolved_at?: string | null;
    last_response_at: string | null;
    /** The SLA signals already sent, by kind, metric and due time. */
    sla_signals: Record<string, boolean>;
    sla_next_response_set_at: string | null;
  };

export const ticketsProjection: Projection<TicketDocument, TicketEvent> = {
  collection: TICKETS,
  handles: ['ticket.created', 'ticket.updated', 'ticket.resolved', 'ticket.response_recorded', 'sla.at_risk', 'sla.breached'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      // SLA bookkeeping for the monitor: when the next-response target was set, the last reply, signals sent.
      case 'ticket.created':
        return { ...e.data, updated_at: at, last_response_at: null, sla_signals: {}, sla_next_response_set_at: e.data.sla_next_response_due_at ? at : null };
      case 'ticket.updated': {
        if (!doc) return null;
        const reset = e.data.changes.sla_next_response_due_at !== undefined ? { sla_next_response_set_at: at } : {};
        return { ...doc, ...e.data.changes, ...reset, updated_at: at };
      }
      case 'ticket.resolved':
        return doc && { ...doc, resolved_at: e.data.resolved_at, updated_at: at };
      case 'ticket.response_recorded':
        return doc && { ...doc, last_response_at: e.data.responded_at };
      case 'sla.at_risk':
      case 'sla.breached': {
        if (!doc) return null;
        const kind = e.type === 'sla.at_risk' ? 'at_risk' : 'breached';
        return {
          ...doc,
          sla_status: kind,
          sla_signals: { ...doc.sla_signals, [signalKey(kind, e.data.sla_metric, e.data.sla_due_at)]: true },
          updated_at: at,
        };
      }
      default:
        return doc;
    }
  },
};
