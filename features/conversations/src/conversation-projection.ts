import type { Doc } from '@support/readstore';
import { aggregateId, Projection } from '@support/projections';
import type { ConversationEvent } from './events';

export const CONVERSATIONS = {
  name: 'conversations',
  indexes: [
    ['workspace_id'],
    ['workspace_id', 'status'],
    ['workspace_id', 'channel'],
    ['workspace_id', 'channel_id'],
    ['workspace_id', 'customer_id'],
    ['workspace_id', 'priority'],
  ],
} as const;

/** A conversation as the read model holds it: its fields, its message count and its resolution. */
export type ConversationDocument = Doc &
  Extract<ConversationEvent, { type: 'conversation.created' }>['data'] & {
    is_pinned: boolean;
    resolution_type: string | null;
    message_count: number;
    custom_action_memory: unknown;
    resolved_at: string | null;
    created_at: string;
    updated_at: string;
  };

export const conversationsProjection: Projection<ConversationDocument, ConversationEvent> = {
  collection: CONVERSATIONS,
  handles: ['conversation.created', 'conversation.updated', 'message.created'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'conversation.created':
        return {
          ...e.data,
          is_pinned: false,
          resolution_type: null,
          message_count: 0,
          custom_action_memory: null,
          resolved_at: null,
          created_at: at,
          updated_at: at,
        };
      case 'conversation.updated':
        return doc && { ...doc, ...e.data.changes, updated_at: at };
      case 'message.created':
        return doc && { ...doc, message_count: doc.message_count + 1, updated_at: at };
      default:
        return doc;
    }
  },
};
