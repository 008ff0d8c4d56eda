import { aggregateId, Projection } from './projection';

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

export const conversationsProjection: Projection = {
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
        return doc && { ...doc, message_count: (doc.message_count as number) + 1, updated_at: at };
      default:
        return doc;
    }
  },
};
