import { aggregateId, Projection } from './projection';

export const CANNED_RESPONSES = { name: 'canned_responses', indexes: [['workspace_id']] } as const;

export const cannedResponsesProjection: Projection = {
  collection: CANNED_RESPONSES,
  handles: ['canned_response.created', 'canned_response.updated'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'canned_response.created':
        return { ...e.data, updated_at: at };
      case 'canned_response.updated':
        return doc && { ...doc, ...e.data.changes, updated_at: at };
      default:
        return doc;
    }
  },
};
