import type { JsonSchema } from '../codec/schema';
import { EXAMPLE_AT, EXAMPLE_ID } from '../resources/examples';

/** One webhook event type as a receiver gets it: its `type` and the schema of its `data`. */
export interface WebhookDef {
  type: string;
  summary: string;
  data: JsonSchema;
}

/** What every delivery attempt carries besides its body (docs/guides/webhooks.md). */
const HEADERS = [
  [
    'Service-Signature',
    '`t=<unix seconds>,v1=<hex HMAC-SHA256>` of `<t>.` and the raw body, keyed with the endpoint secret (several `v1` while a secret rolls)',
  ],
  ['Service-Event-Id', "The event's id (`evt_…`): deduplicate on it"],
  ['Service-Event-Type', 'The event type, as in the body'],
  ['Service-Webhook-Id', 'The delivery id (`whd_…`), as listed by GET /webhook_endpoints/{id}/deliveries'],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/**
 * OpenAPI 3.1 `webhooks`: each event type a registered endpoint receives, as the POST the
 * dispatcher sends (`{id, type, created_at, data}`, signed) and the answers it acts on.
 */
export const webhookOperations = (defs: readonly WebhookDef[], tag: string): Record<string, { post: Record<string, unknown> }> =>
  Object.fromEntries(
    defs.map((d) => [
      d.type,
      {
        post: {
          summary: d.summary,
          description: `Sent to each enabled endpoint subscribed to \`${d.type}\` (or \`*\`). \`data\`: ${d.summary.charAt(0).toLowerCase()}${d.summary.slice(1)}. Verify \`Service-Signature\` over the raw body before trusting it; order is not promised.`,
          operationId: `webhooks.${d.type}`,
          tags: [tag],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'type', 'created_at', 'data'],
                  additionalProperties: false,
                  properties: {
                    id: { type: 'string', pattern: '^evt_', description: 'The event id, the same on every attempt' },
                    type: { type: 'string', const: d.type },
                    created_at: { type: 'string', format: 'date-time', description: 'When the event happened' },
                    data: d.data,
                  },
                  // The data's own example, delivered.
                  ...(Array.isArray(d.data.examples)
                    ? { examples: [{ id: EXAMPLE_ID.event, type: d.type, created_at: EXAMPLE_AT.updated, data: d.data.examples[0] as unknown }] }
                    : {}),
                },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx within 10 seconds acknowledges the delivery' },
            '410': { description: 'Gone: the endpoint is disabled at once, with no further attempt' },
            default: {
              description: 'Any other answer (or none in 10 seconds) is a failed attempt, retried with backoff; a `Retry-After` on 429 and 503 is honoured',
            },
          },
        },
      },
    ]),
  );
