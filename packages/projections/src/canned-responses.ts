import type { Doc } from '@support/readstore';
import { aggregateId, EventData, Projection } from './projection';

export const CANNED_RESPONSES = { name: 'canned_responses', indexes: [['workspace_id']] } as const;

/** A canned response as the read model holds it. */
export type CannedResponseDocument = Doc & EventData<'canned_response.created'> & { updated_at: string };

export const cannedResponsesProjection: Projection<CannedResponseDocument> = {
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
