import type { ConversationEvent } from '@support/conversations';
import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { ChannelEvent } from './events';

/** The events the read model follows: its own, and the conversations started on a channel. */
type Followed = ChannelEvent | Extract<ConversationEvent, { type: 'conversation.created' }>;

/** Channels, with their `config` (never served by the API: the resource leaves it out). */
export const CHANNELS = { name: 'channels', indexes: [['workspace_id'], ['workspace_id', 'type']] } as const;

/** A channel as the read model holds it, with the count of conversations started on it. */
export type ChannelDocument = Doc & Extract<ChannelEvent, { type: 'channel.created' }>['data'] & { conversation_count: number; updated_at: string };

export const channelsProjection: Projection<ChannelDocument, Followed> = {
  collection: CHANNELS,
  handles: ['channel.created', 'channel.updated', 'conversation.created'],
  targets: (e) => (e.type === 'conversation.created' ? (e.data.channel_id ? [e.data.channel_id] : []) : [aggregateId(e)]),
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      // conversation_count is the service's own count; an import never sets it, an update keeps it.
      case 'channel.created':
        return { ...e.data, conversation_count: 0, updated_at: at };
      case 'channel.updated':
        return doc && { ...doc, ...e.data.changes, updated_at: at };
      // The count follows the conversations started on the channel.
      case 'conversation.created':
        return doc && { ...doc, conversation_count: doc.conversation_count + 1 };
      default:
        return doc;
    }
  },
};
