import {
  arrayOf,
  commandContext,
  DEFAULT_LIMIT,
  deletedOf,
  EXAMPLE_ID,
  linksTo,
  listBody,
  listOf,
  notFound,
  nullable,
  oneOf,
  pageParams,
  readBack,
  route,
  str,
  struct,
  withSchema,
} from '@support/http';
import { webhookEndpointsOf } from './commands';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import { deliveryId, webhookEventId } from './ids';
import { endpointsOf } from './read-model';
import { webhookRecordsOf } from './records';
import {
  EventResource,
  RetryEnqueued,
  TestEnqueued,
  toDelivery,
  toEvent,
  toWebhookEndpoint,
  WebhookDeliveryResource,
  WebhookEndpointResource,
  WebhookEndpointWithSecret,
} from './resource';

/** Spec 7: an id that is not a webhook endpoint's (or delivery's) is simply not found (404), not malformed. */
const anyId = (what: string, example: string) => str({ min: 1, max: 100, description: `${what} id`, example });
const endpointParams = struct({ id: anyId('webhook endpoint', EXAMPLE_ID.webhookEndpoint) });
const url = str({
  min: 1,
  max: 2048,
  format: 'uri',
  // A host after the scheme: "https://" alone is no URL (Schemathesis sent it as schema-valid, and it answered 400).
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  pattern: /^https:\/\/[^\u0000-\u001f\u007f/?#][^\u0000-\u001f\u007f]*$/,
  patternMessage: 'must be an https:// URL (no control characters)',
  description: 'HTTPS; its host must resolve, and not to an internal, loopback or metadata address (else 400 `url refused: …`)',
});
/**
 * Event types of spec 6.1, or "*" alone. The domain checks it (checkEnabledEvents: 400
 * `validation_error` naming the offence); the schema states the same rule.
 */
const enabledEvents = withSchema(arrayOf(str({ min: 1, max: 64 }), { max: 20 }), {
  minItems: 1,
  anyOf: [{ items: { enum: [...WEBHOOK_EVENT_TYPES] } }, { items: { const: '*' }, maxItems: 1 }],
  description: `Event types (${WEBHOOK_EVENT_TYPES.join(', ')}; repeats are dropped), or ["*"] for all`,
});
const description = nullable(str({ max: 500 }));
const scope = 'webhooks:manage' as const;

export const webhookRoutes = [
  route({
    method: 'get',
    path: '/webhook_endpoints',
    tag: 'webhooks',
    summary: 'List webhook endpoints (unpaginated, newest first)',
    scope,
    links: linksTo(['GET /webhook_endpoints/:id', 'GET /webhook_endpoints/:id/deliveries'], { id: '$response.body#/data/0/id' }),
    query: struct({}),
    response: { status: 200, codec: listOf(WebhookEndpointResource, 'webhook_endpoint'), description: 'Every endpoint, without secrets' },
    handler: async ({ app, principal }) => {
      const { items } = await endpointsOf(app).scoped.find(principal.workspaceId, {});
      return { body: listBody(items.map(toWebhookEndpoint), false) };
    },
  }),
  route({
    method: 'post',
    path: '/webhook_endpoints',
    tag: 'webhooks',
    summary: 'Register an endpoint; the signing secret is in this response only',
    scope,
    body: struct(
      { url, enabled_events: enabledEvents },
      { description },
      { example: { url: 'https://hooks.acme-bikes.example/support', enabled_events: ['customer.created', 'message.created'], description: 'CRM sync' } },
    ),
    response: { status: 201, codec: WebhookEndpointWithSecret, description: 'The endpoint with its secret' },
    links: linksTo(
      [
        'GET /webhook_endpoints/:id',
        'PATCH /webhook_endpoints/:id',
        'DELETE /webhook_endpoints/:id',
        'POST /webhook_endpoints/:id/roll_secret',
        'POST /webhook_endpoints/:id/test',
        'GET /webhook_endpoints/:id/deliveries',
      ],
      { id: '$response.body#/id' },
    ),
    handler: async ({ app, principal, body, requestId, idempotency }) => {
      const { id, secret, position } = await webhookEndpointsOf(app).create(commandContext(principal, requestId, idempotency), body);
      const doc = await readBack(app, position, () => endpointsOf(app).scoped.get(principal.workspaceId, id), 'webhook endpoint', id);
      // A retry of a saved create shows the secret it made (the stored one).
      return { body: { ...toWebhookEndpoint(doc), secret: secret ?? doc.secret } };
    },
  }),
  route({
    method: 'get',
    path: '/webhook_endpoints/:id',
    tag: 'webhooks',
    summary: 'Get an endpoint',
    scope,
    params: endpointParams,
    response: { status: 200, codec: WebhookEndpointResource, description: 'The endpoint, without its secret' },
    handler: async ({ app, principal, params }) => {
      const doc = await endpointsOf(app).scoped.require(principal.workspaceId, params.id, 'webhook endpoint');
      return { body: toWebhookEndpoint(doc) };
    },
  }),
  route({
    method: 'patch',
    path: '/webhook_endpoints/:id',
    tag: 'webhooks',
    summary: 'Change url, description, events or status (enabling clears the failure counter)',
    scope,
    params: endpointParams,
    body: struct({}, { url, description, enabled_events: enabledEvents, status: oneOf(['enabled', 'disabled'] as const) }, { example: { status: 'enabled' } }),
    response: { status: 200, codec: WebhookEndpointResource, description: 'The endpoint' },
    handler: async ({ app, principal, params, body, requestId, idempotency }) => {
      const { position } = await webhookEndpointsOf(app).update(commandContext(principal, requestId, idempotency), params.id, body);
      const doc = await readBack(app, position, () => endpointsOf(app).scoped.get(principal.workspaceId, params.id), 'webhook endpoint', params.id);
      return { body: toWebhookEndpoint(doc) };
    },
  }),
  route({
    method: 'delete',
    path: '/webhook_endpoints/:id',
    tag: 'webhooks',
    summary: 'Delete an endpoint',
    scope,
    params: endpointParams,
    response: { status: 200, codec: deletedOf('webhook_endpoint', EXAMPLE_ID.webhookEndpoint), description: 'The deleted endpoint id' },
    handler: async ({ app, principal, params, requestId, idempotency }) => {
      const { position } = await webhookEndpointsOf(app).delete(commandContext(principal, requestId, idempotency), params.id);
      await app.settle(position);
      return { body: { object: 'webhook_endpoint', id: params.id, deleted: true } };
    },
  }),
  route({
    method: 'post',
    path: '/webhook_endpoints/:id/roll_secret',
    tag: 'webhooks',
    summary: 'Replace the signing secret; the old one stops working at once',
    scope,
    params: endpointParams,
    response: { status: 200, codec: WebhookEndpointWithSecret, description: 'The endpoint with its new secret' },
    handler: async ({ app, principal, params, requestId, idempotency }) => {
      const { secret, position, replayed } = await webhookEndpointsOf(app).rollSecret(commandContext(principal, requestId, idempotency), params.id);
      const doc = await readBack(app, position, () => endpointsOf(app).scoped.get(principal.workspaceId, params.id), 'webhook endpoint', params.id);
      // A retry of a saved roll rolls nothing and shows the secret now in force.
      return { body: { ...toWebhookEndpoint(doc), secret: replayed ? doc.secret : secret } };
    },
  }),
  route({
    method: 'post',
    path: '/webhook_endpoints/:id/test',
    tag: 'webhooks',
    summary: 'Send a synthetic ping event to this endpoint',
    scope,
    params: endpointParams,
    response: { status: 200, codec: TestEnqueued, description: 'The ping is queued' },
    links: linksTo(['GET /webhook_endpoints/:id/deliveries'], { id: '$response.body#/id' }),
    handler: async ({ app, principal, params }) => {
      const endpoint = await endpointsOf(app).scoped.require(principal.workspaceId, params.id, 'webhook endpoint');
      const at = app.clock.now().toISOString();
      const eventId = webhookEventId(app.ids.eventId(), at);
      await webhookRecordsOf(app).recordEvent({
        id: eventId,
        workspace_id: principal.workspaceId,
        type: 'ping',
        data: { object: 'webhook_endpoint', id: endpoint.id, url: endpoint.url },
        created_at: at,
      });
      await webhookRecordsOf(app).enqueue({
        id: deliveryId(eventId, endpoint.id, at),
        workspace_id: principal.workspaceId,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: 'ping',
      });
      return { body: { object: 'webhook_endpoint', id: endpoint.id, test_event_enqueued: true } };
    },
  }),
  route({
    method: 'get',
    path: '/webhook_endpoints/:id/deliveries',
    tag: 'webhooks',
    summary: "An endpoint's deliveries, newest first",
    scope,
    params: endpointParams,
    query: struct({}, pageParams),
    response: { status: 200, codec: listOf(WebhookDeliveryResource, 'webhook_delivery'), description: 'A page of deliveries' },
    links: linksTo(['POST /webhook_endpoints/:id/deliveries/:deliveryId/retry'], { id: '$request.path.id', deliveryId: '$response.body#/data/0/id' }),
    handler: async ({ app, principal, params, query }) => {
      await endpointsOf(app).scoped.require(principal.workspaceId, params.id, 'webhook endpoint');
      const page = await webhookRecordsOf(app).deliveries.find(principal.workspaceId, {
        where: { endpoint_id: params.id },
        startingAfter: query.starting_after,
        limit: query.limit ?? DEFAULT_LIMIT,
      });
      return { body: listBody(page.items.map(toDelivery), page.hasMore) };
    },
  }),
  route({
    method: 'post',
    path: '/webhook_endpoints/:id/deliveries/:deliveryId/retry',
    tag: 'webhooks',
    summary: 'Send a delivery again, now',
    scope,
    params: struct({ id: anyId('webhook endpoint', EXAMPLE_ID.webhookEndpoint), deliveryId: anyId('delivery', EXAMPLE_ID.delivery) }),
    response: { status: 200, codec: RetryEnqueued, description: 'The delivery is queued' },
    handler: async ({ app, principal, params }) => {
      if (!(await webhookRecordsOf(app).retry(principal.workspaceId, params.id, params.deliveryId))) throw notFound('webhook delivery', params.deliveryId);
      return { body: { object: 'webhook_delivery', id: params.deliveryId, retry_enqueued: true } };
    },
  }),
  route({
    method: 'get',
    path: '/events',
    tag: 'webhooks',
    summary: 'Events recorded for delivery, newest first',
    scope,
    query: struct({}, pageParams),
    response: { status: 200, codec: listOf(EventResource, 'event'), description: 'A page of events' },
    handler: async ({ app, principal, query }) => {
      const page = await webhookRecordsOf(app).events.find(principal.workspaceId, { startingAfter: query.starting_after, limit: query.limit ?? DEFAULT_LIMIT });
      return { body: listBody(page.items.map(toEvent), page.hasMore) };
    },
  }),
];
