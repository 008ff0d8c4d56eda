import { aggregateId, Projection } from './projection';

/** Channels, with their `config` (never served by the API: the resource leaves it out). */
export const CHANNELS = { name: 'channels', indexes: [['workspace_id'], ['workspace_id', 'type']] } as const;

export const channelsProjection: Projection = {
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
        return doc && { ...doc, conversation_count: (doc.conversation_count as number) + 1 };
      default:
        return doc;
    }
  },
};
