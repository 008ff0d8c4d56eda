import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { CannedResponseEvent } from './events';

export const CANNED_RESPONSES = { name: 'canned_responses', indexes: [['workspace_id']] } as const;

/** A canned response as the read model holds it. */
export type CannedResponseDocument = Doc & Extract<CannedResponseEvent, { type: 'canned_response.created' }>['data'] & { updated_at: string };

export const cannedResponsesProjection: Projection<CannedResponseDocument, CannedResponseEvent> = {
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
