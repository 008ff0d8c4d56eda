import { envelopeSchema } from '../resources/common';
import { RouteDef } from '../route';
import { JsonSchema } from '../codec/schema';
import { toSchema } from './to-schema';

const ERRORS: Record<string, string> = {
  '400': 'Invalid body or parameters (validation failures carry no code)',
  '401': 'Missing, invalid, expired or revoked key (`unauthorized`)',
  '402': 'The workspace has no active plan (`PLAN_LIMIT_REACHED`)',
  '403': 'The key lacks a scope (`insufficient_scope`, details.required) or the plan has no API access (`forbidden`)',
  '404': 'Not found in this workspace (`not_found`)',
  '405': 'The path exists with other methods (`method_not_allowed`); see Allow',
  '408': 'The request (headers and body) did not arrive in time',
  '409': 'Conflicting state (`conflict`)',
  '413': 'Body over 1 MiB (`payload_too_large`)',
  '415': 'A body that is not application/json, or an unknown Content-Encoding (`unsupported_media_type`)',
  '429': 'Rate limit exceeded (`rate_limited`); see Retry-After',
  '431': 'Request headers too large',
  '500': 'Internal error (`internal_error`, details.request_id)',
};

const rateHeaders = Object.fromEntries(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => [h, { schema: { type: 'integer' } }]));

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const parameters = (schema: JsonSchema | undefined, where: 'path' | 'query') => {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
};

/**
 * Operations that are not route declarations: the document itself, and the MCP endpoint, whose
 * body is JSON-RPC 2.0 handled by the MCP SDK (spec 4.3 rule 8 leaves its shape open).
 */
const fixedPaths = (): Record<string, Record<string, unknown>> => ({
  '/openapi.json': {
    get: {
      summary: 'This description (OpenAPI 3.1), unauthenticated', tags: ['meta'], operationId: 'getOpenapiJson', security: [],
      responses: { '200': { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } } } },
    },
  },
  '/mcp': {
    post: {
      summary: 'Model Context Protocol server (Streamable HTTP, stateless; chat rate tier). Tools: send_message (agent:chat), search_knowledge (agent:read), get_conversation and list_conversations (conversations:read); a tool the key may not use answers an MCP tool error naming the scope',
      tags: ['agent'], operationId: 'postMcp', 'x-rate-limit-tier': 'chat',
      parameters: [
        { name: 'Accept', in: 'header', required: true, schema: { type: 'string', example: 'application/json, text/event-stream' }, description: 'Must accept both application/json and text/event-stream' },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request, notification or batch', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } } } } },
      },
      responses: {
        '200': { description: 'A JSON-RPC 2.0 response', headers: rateHeaders, content: { 'application/json': { schema: { type: 'object', properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, result: {}, error: { type: 'object' } } } } } },
        '202': { description: 'A notification was accepted' },
        ...Object.fromEntries(['400', '401', '402', '403', '405', '406', '408', '413', '415', '429', '431', '500'].map((c) => [c, c === '406' ? { description: 'The client does not accept both application/json and text/event-stream' } : { $ref: `#/components/responses/Error${c}` }])),
      },
    },
  },
});

/** OpenAPI 3.1, generated from the same route declarations and codecs that validate requests. */
export const openApiDocument = (routes: readonly RouteDef[], info: { version: string; serverUrl: string }) => {
  const paths: Record<string, Record<string, unknown>> = fixedPaths();
  for (const r of routes) {
    const path = openApiPath(r.path);
    const errorCodes = ['400', '401', '402', '403', '404', '405', '408', '409', '413', '415', '429', '431', '500'].filter((c) => r.method !== 'get' || (c !== '413' && c !== '415'));
    paths[path] = {
      ...paths[path],
      [r.method]: {
        summary: r.summary,
        tags: [r.tag],
        operationId: `${r.method}${path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_, ch: string) => ch.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`,
        ...(r.scope ? { 'x-required-scope': r.scope } : {}),
        parameters: [
          ...parameters(r.params?.jsonSchema, 'path'),
          ...parameters(r.query?.jsonSchema, 'query'),
          ...(r.method === 'post' ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }] : []),
        ],
        ...(r.body ? { requestBody: { required: !r.bodyOptional, content: { 'application/json': { schema: r.body.jsonSchema } } } } : {}),
        responses: {
          [String(r.response.status)]: { description: r.response.description, headers: rateHeaders, content: { 'application/json': { schema: toSchema(r.response.codec) } } },
          ...Object.fromEntries(errorCodes.map((c) => [c, { $ref: `#/components/responses/Error${c}` }])),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Customer Support Platform API', version: info.version },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_… or sk_test_…' } },
      schemas: { Error: envelopeSchema },
      // 408 and 431 are answered by Node's HTTP server before the request reaches the API: no body.
      responses: Object.fromEntries(Object.entries(ERRORS).map(([c, description]) => [`Error${c}`, c === '408' || c === '431' ? { description } : {
        description, headers: rateHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      }])),
    },
  };
};
