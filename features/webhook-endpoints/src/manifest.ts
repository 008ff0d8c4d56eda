import type { Feature } from '@support/application';
import { WebhookEndpointEvent } from './events';
import { webhookEndpointsProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events and read model. */
export const webhookEndpointsFeature: Feature = { events: WebhookEndpointEvent, projections: [webhookEndpointsProjection], imports: [] };
