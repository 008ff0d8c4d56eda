import { JSONRPCMessageSchema, JSONRPCResponseSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorResponseRef, FORBIDDEN_KEY, type JsonSchema, RATE_LIMIT_HEADERS } from '@support/http';

const JSON_VALUE = { $ref: '#/components/schemas/JsonValue' };

/**
 * The free-form parts the SDK leaves open (params, _meta, result: any keys and values) are any
 * JSON value but one: the body parser refuses a `__proto__` key anywhere in a body, here too.
 */
const withoutForbiddenKey = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(withoutForbiddenKey);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const isEmpty = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([k, v]) => [k, Object.keys(v as object).length === 0 ? JSON_VALUE : withoutForbiddenKey(v)]),
      );
    else if (key === 'additionalProperties' && isEmpty) out[key] = JSON_VALUE;
    else out[key] = withoutForbiddenKey(value);
  }
  if (out.type === 'object' && out.additionalProperties !== false) {
    // Unnamed keys are free in zod's objects (the SDK passes them through): any JSON value.
    out.additionalProperties ??= JSON_VALUE;
    out.propertyNames = { not: { const: FORBIDDEN_KEY } };
  }
  return out;
};

/** The MCP SDK's own schemas (zod) as JSON Schema: the document states what the SDK validates with. */
const jsonSchemaOf = (schema: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  return rest;
};

/** A batch of more messages is refused before the SDK sees it (mount.ts: each counts against the chat rate limit as one request). */
const MAX_BATCH = 1;

/** components.schemas of the document that /mcp names. */
export const mcpOpenApiSchemas = (): Record<string, JsonSchema> => ({
  JsonRpcMessage: {
    ...(withoutForbiddenKey(jsonSchemaOf(JSONRPCMessageSchema)) as JsonSchema),
    description: "A JSON-RPC 2.0 request, notification, result or error (the MCP SDK's JSONRPCMessageSchema)",
  },
  JsonRpcResponse: { ...jsonSchemaOf(JSONRPCResponseSchema), description: "A JSON-RPC 2.0 result or error (the MCP SDK's JSONRPCResponseSchema)" },
});

const oneOrBatch = (name: string, what: string) => ({
  anyOf: [
    { $ref: `#/components/schemas/${name}` },
    { type: 'array', items: { $ref: `#/components/schemas/${name}` }, maxItems: MAX_BATCH, description: `A batch of ${what}: one at most` },
  ],
});

/** What the SDK's transport answers by itself (wrong Accept or Content-Type, a body that is not JSON-RPC): `id` null. */
const transportError = {
  type: 'object',
  title: 'jsonrpc_transport_error',
  required: ['jsonrpc', 'error', 'id'],
  additionalProperties: false,
  properties: {
    jsonrpc: { const: '2.0' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
    id: { type: 'null' },
  },
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const envelope = { $ref: '#/components/schemas/Error' };

/**
 * POST /mcp (spec 4.3 rule 8 leaves its shape open): JSON-RPC 2.0 over the SDK's Streamable HTTP
 * transport, stateless, JSON answers. Not a route declaration: the body is the SDK's to validate,
 * so the document takes the SDK's own schemas rather than restating them.
 */
export const mcpOpenApiPath = (): Record<string, Record<string, unknown>> => ({
  '/mcp': {
    post: {
      summary: 'The Model Context Protocol server',
      description:
        'Model Context Protocol server (Streamable HTTP, stateless, JSON answers; chat rate tier). Tools: send_message (agent:chat), search_knowledge (agent:read), get_conversation and list_conversations (conversations:read); a tool the key may not use answers an MCP tool error naming the scope. An unknown method is a JSON-RPC error in a 200. `deployed_channels.mcp` false (PATCH /agent) switches the tools off.',
      tags: ['agent'],
      operationId: 'mcp.call',
      'x-rate-limit-tier': 'chat',
      parameters: [
        {
          name: 'Accept',
          in: 'header',
          required: true,
          description: 'Must accept both application/json and text/event-stream (406 otherwise)',
          schema: {
            type: 'string',
            pattern: 'application/json.*text/event-stream|text/event-stream.*application/json',
            example: 'application/json, text/event-stream',
          },
        },
        {
          name: 'Mcp-Protocol-Version',
          in: 'header',
          required: false,
          description: 'The negotiated protocol version; another value is a 400',
          schema: { type: 'string', enum: [...SUPPORTED_PROTOCOL_VERSIONS] },
        },
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Keys a tools/call by its tool and arguments (not the JSON-RPC id): a retried send_message answers the turn already recorded, not charged again. Another call with the same key is a 400. Other messages ignore it (past 255 characters it is a 400 on any).',
          schema: { type: 'string', maxLength: 255 },
        },
      ],
      requestBody: {
        required: true,
        content: json({
          ...oneOrBatch('JsonRpcMessage', 'messages'),
          description: 'A JSON-RPC 2.0 message (a batch of several is refused: one message a request)',
        }),
      },
      responses: {
        '200': {
          description: 'The JSON-RPC response, or the responses of a batch',
          headers: RATE_LIMIT_HEADERS,
          content: json(oneOrBatch('JsonRpcResponse', 'responses')),
        },
        '202': { description: 'Only notifications or responses were sent: accepted, no body', headers: RATE_LIMIT_HEADERS },
        '400': {
          description:
            'A body that is not JSON or not UTF-8, or a batch of several messages (the error envelope); not a JSON-RPC message, or an unsupported Mcp-Protocol-Version (a JSON-RPC error)',
          headers: RATE_LIMIT_HEADERS,
          content: json({ anyOf: [envelope, transportError] }),
        },
        '406': {
          description: 'The client does not accept both application/json and text/event-stream',
          headers: RATE_LIMIT_HEADERS,
          content: json(transportError),
        },
        '415': {
          description: 'An unknown Content-Encoding (the error envelope), or a Content-Type other than application/json (a JSON-RPC error)',
          headers: RATE_LIMIT_HEADERS,
          content: json({ anyOf: [envelope, transportError] }),
        },
        ...Object.fromEntries(['401', '402', '403', '405', '408', '413', '429', '431', '500'].map((c) => [c, errorResponseRef(c)])),
      },
    },
  },
});
