import type { Doc } from '@support/readstore';
import { EventData, Projection } from './projection';

export const MESSAGES = { name: 'messages', indexes: [['workspace_id', 'conversation_id']] } as const;

/** A message as the read model holds it. */
export type MessageDocument = Doc & EventData<'message.created'> & { created_at: string };

export const messagesProjection: Projection<MessageDocument> = {
  collection: MESSAGES,
  handles: ['message.created'],
  targets: (e) => (e.type === 'message.created' ? [e.data.id] : []),
  apply: (_doc, e) => (e.type === 'message.created' ? { ...e.data, created_at: e.metadata.occurred_at } : null),
};
