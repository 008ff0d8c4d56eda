import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const EndpointStatus = t.keyof({ enabled: null, disabled: null });

export const WebhookEndpointCreated = eventCodec(
  'webhook_endpoint.created',
  t.type({
    id: t.string,
    workspace_id: t.string,
    url: t.string,
    description: nullable(t.string),
    enabled_events: t.array(t.string),
    /** The signing secret: the dispatcher needs it to sign; `events replay` redacts it. */
    secret: t.string,
  }),
);
export const WebhookEndpointChanges = t.partial({
  url: t.string,
  description: nullable(t.string),
  enabled_events: t.array(t.string),
  status: EndpointStatus,
});
export type WebhookEndpointChanges = t.TypeOf<typeof WebhookEndpointChanges>;
export const WebhookEndpointUpdated = eventCodec('webhook_endpoint.updated', t.type({ id: t.string, changes: WebhookEndpointChanges }));
export const WebhookEndpointDeleted = eventCodec('webhook_endpoint.deleted', t.type({ id: t.string }));
export const WebhookEndpointSecretRolled = eventCodec('webhook_endpoint.secret_rolled', t.type({ id: t.string, secret: t.string }));
/** One failed delivery attempt, counted towards the disable threshold. */
export const WebhookEndpointDeliveryFailed = eventCodec(
  'webhook_endpoint.delivery_failed',
  t.type({
    id: t.string,
    delivery_id: t.string,
    error: t.string,
    consecutive_failures: t.number,
  }),
);
/** A success after failures resets the counter. */
export const WebhookEndpointDeliverySucceeded = eventCodec('webhook_endpoint.delivery_succeeded', t.type({ id: t.string, delivery_id: t.string }));
export const WebhookEndpointFailureWarning = eventCodec(
  'webhook_endpoint.failure_warning',
  t.type({ id: t.string, consecutive_failures: t.number, last_error: t.string }),
);
export const WebhookEndpointDisabled = eventCodec(
  'webhook_endpoint.disabled',
  t.type({
    id: t.string,
    reason: t.keyof({ consecutive_failures: null, gone: null }),
    last_error: t.string,
  }),
);

export const WebhookEndpointEvent = t.union([
  WebhookEndpointCreated,
  WebhookEndpointUpdated,
  WebhookEndpointDeleted,
  WebhookEndpointSecretRolled,
  WebhookEndpointDeliveryFailed,
  WebhookEndpointDeliverySucceeded,
  WebhookEndpointFailureWarning,
  WebhookEndpointDisabled,
]);
export type WebhookEndpointEvent = t.TypeOf<typeof WebhookEndpointEvent>;
