import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { WebhookEndpointEvent } from './events';

export const WEBHOOK_ENDPOINTS = { name: 'webhook_endpoints', indexes: [['workspace_id'], ['workspace_id', 'status']] } as const;

/** A webhook endpoint as the read model holds it, with its signing secret (which only create and roll show). */
export type WebhookEndpointDocument = Doc &
  Omit<Extract<WebhookEndpointEvent, { type: 'webhook_endpoint.created' }>['data'], 'id'> & {
    status: 'enabled' | 'disabled';
    consecutive_failures: number;
    last_error_at: string | null;
    disabled_at: string | null;
    created_at: string;
    updated_at: string;
  };

/** Holds the signing secret for the dispatcher; the API shows it only on create and roll. */
export const webhookEndpointsProjection: Projection<WebhookEndpointDocument, WebhookEndpointEvent> = {
  collection: WEBHOOK_ENDPOINTS,
  handles: [
    'webhook_endpoint.created',
    'webhook_endpoint.updated',
    'webhook_endpoint.deleted',
    'webhook_endpoint.secret_rolled',
    'webhook_endpoint.delivery_failed',
    'webhook_endpoint.delivery_succeeded',
    'webhook_endpoint.disabled',
  ],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    if (e.type === 'webhook_endpoint.created') {
      return { ...e.data, status: 'enabled', consecutive_failures: 0, last_error_at: null, disabled_at: null, created_at: at, updated_at: at };
    }
    if (!doc) return null;
    switch (e.type) {
      case 'webhook_endpoint.updated': {
        const { status } = e.data.changes;
        const transition =
          status === 'enabled' ? { consecutive_failures: 0, disabled_at: null } : status === 'disabled' && doc.status !== 'disabled' ? { disabled_at: at } : {};
        return { ...doc, ...e.data.changes, ...transition, updated_at: at };
      }
      case 'webhook_endpoint.deleted':
        return null;
      case 'webhook_endpoint.secret_rolled':
        return { ...doc, secret: e.data.secret, updated_at: at };
      case 'webhook_endpoint.delivery_failed':
        return { ...doc, consecutive_failures: e.data.consecutive_failures, last_error_at: at, updated_at: at };
      case 'webhook_endpoint.delivery_succeeded':
        return { ...doc, consecutive_failures: 0, updated_at: at };
      case 'webhook_endpoint.disabled':
        return { ...doc, status: 'disabled', disabled_at: at, updated_at: at };
      default:
        return doc;
    }
  },
};

/** Endpoint events that leave who receives an event as it was (status, subscriptions, existence). */
const RECEIVERS_KEPT: ReadonlySet<string> = new Set([
  'webhook_endpoint.delivery_failed',
  'webhook_endpoint.delivery_succeeded',
  'webhook_endpoint.secret_rolled',
]);
/** Whether an event may change which endpoints of its workspace receive events (any new endpoint event type does, until listed above). */
export const changesReceivers = (type: string): boolean => type.startsWith('webhook_endpoint.') && !RECEIVERS_KEPT.has(type);
