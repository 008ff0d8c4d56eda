import { Projection } from './projection';

export const MESSAGES = { name: 'messages', indexes: [['workspace_id', 'conversation_id']] } as const;

export const messagesProjection: Projection = {
  collection: MESSAGES,
  handles: ['message.created'],
  targets: (e) => (e.type === 'message.created' ? [e.data.id] : []),
  apply: (_doc, e) => (e.type === 'message.created' ? { ...e.data, created_at: e.metadata.occurred_at } : null),
};
