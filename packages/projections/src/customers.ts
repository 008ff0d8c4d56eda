import { aggregateId, Projection } from './projection';

export const CUSTOMERS = { name: 'customers', indexes: [['workspace_id'], ['workspace_id', 'status'], ['workspace_id', 'external_id']] } as const;

export const customersProjection: Projection = {
  collection: CUSTOMERS,
  handles: ['customer.created', 'customer.updated'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'customer.created':
        return {
          ...e.data,
          avatar_url: null,
          conversation_count: 0,
          first_contact_at: null,
          last_contact_at: null,
          created_at: at,
          updated_at: at,
        };
      case 'customer.updated': return doc && { ...doc, ...e.data.changes, updated_at: at };
      default: return doc;
    }
  },
};
