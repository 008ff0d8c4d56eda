import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { CUSTOMER_STATUSES, CustomerEvent } from './events';
import type { ContactEvent } from './contact-events';

export const CUSTOMERS = {
  name: 'customers',
  indexes: [['workspace_id'], ['workspace_id', 'status'], ['workspace_id', 'external_id']],
  search: ['name', 'email', 'phone'],
} as const;

/** A customer as the read model holds it: the customer's fields and their contact counters. */
export interface CustomerDocument extends Doc {
  workspace_id: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  avatar_url: string | null;
  status: (typeof CUSTOMER_STATUSES)[number];
  tags: string[];
  external_id: string | null;
  metadata: Record<string, unknown>;
  conversation_count: number;
  first_contact_at: string | null;
  last_contact_at: string | null;
  created_at: string;
  updated_at: string;
}

export const customersProjection: Projection<CustomerDocument, CustomerEvent | ContactEvent> = {
  collection: CUSTOMERS,
  handles: ['customer.created', 'customer.updated', 'conversation.created', 'conversation.updated', 'message.created'],
  targets: (e) => {
    if (e.type === 'conversation.created' || e.type === 'message.created') return e.data.customer_id ? [e.data.customer_id] : [];
    if (e.type === 'conversation.updated') return e.data.changes.customer_id ? [e.data.changes.customer_id] : [];
    return [aggregateId(e)];
  },
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
      case 'customer.updated':
        return doc && { ...doc, ...e.data.changes, updated_at: at };
      // Contact times follow the customer's conversations and the messages they send.
      // A conversation the agent linked to a lead it captured counts like one started by them.
      case 'conversation.created':
      case 'conversation.updated':
        return doc && { ...doc, conversation_count: doc.conversation_count + 1, first_contact_at: doc.first_contact_at ?? at, last_contact_at: at };
      case 'message.created':
        return doc && (e.data.sender_type === 'customer' ? { ...doc, last_contact_at: at } : doc);
      default:
        return doc;
    }
  },
};
