import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { ApiKeyEvent } from './key-events';

export const API_KEYS = { name: 'api_keys' } as const;

/** An API key as the read model holds it: its hash (never the key), scopes and expiry, and when it was revoked. */
export type ApiKeyDocument = Doc & Extract<ApiKeyEvent, { type: 'api_key.created' }>['data'] & { revoked_at: string | null; created_at: string };

export const apiKeysProjection: Projection<ApiKeyDocument, ApiKeyEvent> = {
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
