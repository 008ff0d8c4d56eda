import { aggregateId, Projection } from './projection';

export const API_KEYS = { name: 'api_keys' } as const;

export const apiKeysProjection: Projection = {
  collection: API_KEYS,
  handles: ['api_key.created', 'api_key.revoked'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    switch (e.type) {
      case 'api_key.created':
        return { ...e.data, revoked_at: null, created_at: e.metadata.occurred_at };
      case 'api_key.revoked':
        return doc && { ...doc, revoked_at: e.metadata.occurred_at };
      default:
        return doc;
    }
  },
};
