import { arrayOf, bool, EXAMPLE_AT, EXAMPLE_ID, jsonObject, int, literal, nullable, oneOf, str, struct, timestamp } from '@support/http';
import type { WebhookEndpointDocument } from './projection';
import type { DeliveryDoc, WebhookEventDoc } from './records';

const endpointFields = {
  object: literal('webhook_endpoint'),
  id: str(),
  url: str({ format: 'uri' }),
  description: nullable(str()),
  enabled_events: arrayOf(str()),
  status: oneOf(['enabled', 'disabled'] as const),
  consecutive_failures: int({ min: 0 }),
  last_error_at: nullable(timestamp()),
  disabled_at: nullable(timestamp()),
  created_at: timestamp(),
  updated_at: timestamp(),
};

const endpointExample = {
  object: 'webhook_endpoint' as const,
  id: EXAMPLE_ID.webhookEndpoint,
  url: 'https://hooks.acme-bikes.example/support',
  description: 'CRM sync',
  enabled_events: ['customer.created', 'message.created'],
  status: 'enabled' as const,
  consecutive_failures: 0,
  last_error_at: null,
  disabled_at: null,
  created_at: EXAMPLE_AT.created,
  updated_at: EXAMPLE_AT.created,
};

/** Spec 2.13, without the secret: every response but create and roll_secret. */
export const WebhookEndpointResource = struct(endpointFields, {}, { title: 'webhook_endpoint', example: endpointExample });
/** Create and roll_secret: the signing secret, shown this once. */
export const WebhookEndpointWithSecret = struct(
  { ...endpointFields, secret: str({ pattern: /^whsec_/, description: 'Signing secret, shown only here' }) },
  {},
  { title: 'webhook_endpoint_with_secret', example: { ...endpointExample, secret: 'whsec_3q9ZkV1d7LwR2bNx8TgYp4Hs6JcMf0Ae' } },
);

export const toWebhookEndpoint = (d: WebhookEndpointDocument) => ({
  object: 'webhook_endpoint' as const,
  id: d.id,
  url: d.url,
  description: d.description,
  enabled_events: d.enabled_events,
  status: d.status,
  consecutive_failures: d.consecutive_failures,
  last_error_at: d.last_error_at,
  disabled_at: d.disabled_at,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

/** Spec 2.14; statuses: pending, succeeded, failed (after the last attempt, or 410), canceled (endpoint disabled or deleted). */
export const WebhookDeliveryResource = struct(
  {
    object: literal('webhook_delivery'),
    id: str(),
    event_id: str(),
    event_type: str(),
    status: oneOf(['pending', 'succeeded', 'failed', 'canceled'] as const),
    attempt_count: int({ min: 0 }),
    next_retry_at: nullable(timestamp()),
    last_attempt_at: nullable(timestamp()),
    response_status: nullable(int()),
    response_body: nullable(str({ description: 'The first 2 KiB of the last response' })),
    last_error: nullable(str({ description: 'Why the last attempt failed without a response' })),
    created_at: timestamp(),
  },
  {},
  {
    title: 'webhook_delivery',
    example: {
      object: 'webhook_delivery',
      id: EXAMPLE_ID.delivery,
      event_id: EXAMPLE_ID.event,
      event_type: 'message.created',
      status: 'succeeded',
      attempt_count: 1,
      next_retry_at: null,
      last_attempt_at: EXAMPLE_AT.updated,
      response_status: 200,
      response_body: 'ok',
      last_error: null,
      created_at: EXAMPLE_AT.updated,
    },
  },
);

export const toDelivery = (d: DeliveryDoc) => ({
  object: 'webhook_delivery' as const,
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempt_count: d.attempt_count,
  next_retry_at: d.next_retry_at,
  last_attempt_at: d.last_attempt_at,
  response_status: d.response_status,
  response_body: d.response_body,
  last_error: d.last_error,
  created_at: d.created_at,
});

/** Spec 2.15. */
export const EventResource = struct(
  { object: literal('event'), id: str(), type: str(), data: jsonObject(), created_at: timestamp() },
  {},
  {
    title: 'event',
    example: {
      object: 'event',
      id: EXAMPLE_ID.event,
      type: 'customer.created',
      data: { object: 'customer', id: EXAMPLE_ID.customer, email: 'ada.moreau@example.com', name: 'Ada Moreau' },
      created_at: EXAMPLE_AT.created,
    },
  },
);

export const toEvent = (d: WebhookEventDoc) => ({ object: 'event' as const, id: d.id, type: d.type, data: d.data, created_at: d.created_at });

export const RetryEnqueued = struct(
  { object: literal('webhook_delivery'), id: str(), retry_enqueued: bool() },
  {},
  { title: 'retry_enqueued', example: { object: 'webhook_delivery', id: EXAMPLE_ID.delivery, retry_enqueued: true } },
);
export const TestEnqueued = struct(
  { object: literal('webhook_endpoint'), id: str(), test_event_enqueued: bool() },
  {},
  { title: 'test_event_enqueued', example: { object: 'webhook_endpoint', id: EXAMPLE_ID.webhookEndpoint, test_event_enqueued: true } },
);
