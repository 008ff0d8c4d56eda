import type { Doc } from '@support/readstore';
import { Projection } from '@support/projections';
import type { ConversationEvent, MessageData } from './events';

export const MESSAGES = { name: 'messages', indexes: [['workspace_id', 'conversation_id']] } as const;

/** A message as the read model holds it. */
export type MessageDocument = Doc & MessageData & { created_at: string };

export const messagesProjection: Projection<MessageDocument, ConversationEvent> = {
  collection: MESSAGES,
  handles: ['message.created'],
  targets: (e) => (e.type === 'message.created' ? [e.data.id] : []),
  apply: (_doc, e) => (e.type === 'message.created' ? { ...e.data, created_at: e.metadata.occurred_at } : null),
};
