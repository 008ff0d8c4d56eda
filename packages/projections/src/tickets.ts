import { aggregateId, Projection } from './projection';

/** Indexes serve the list filters of GET /tickets. */
export const TICKETS = {
  name: 'tickets',
  indexes: [['workspace_id'], ['workspace_id', 'status'], ['workspace_id', 'priority'], ['workspace_id', 'type'], ['workspace_id', 'customer_id'], ['workspace_id', 'assignee_id']],
} as const;

export const ticketsProjection: Projection = {
  collection: TICKETS,
  handles: ['ticket.created', 'ticket.updated', 'ticket.resolved'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'ticket.created': return { ...e.data, updated_at: at };
      case 'ticket.updated': return doc && { ...doc, ...e.data.changes, updated_at: at };
      case 'ticket.resolved': return doc && { ...doc, resolved_at: e.data.resolved_at, updated_at: at };
      default: return doc;
    }
  },
};
