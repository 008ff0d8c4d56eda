import { envelopeSchema } from '../resources/common';
import { operationIdOf, RouteDef } from '../route';
import { FREE_JSON_ITEM_SCHEMA, FREE_JSON_VALUE_SCHEMA, JSON_VALUE_SCHEMA } from '../codec/primitives';
import { JsonSchema } from '../codec/schema';
import { toSchema } from './to-schema';
import { type WebhookDef, webhookOperations } from './webhooks';
import { DESCRIPTION, ERROR_EXAMPLES, ERRORS } from './errors';

/** Every answer carries them (spec 4.1), and the request's id (also in a 500's body). */
export const RATE_LIMIT_HEADERS = {
  ...Object.fromEntries(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => [h, { schema: { type: 'integer' } }])),
  'Request-Id': { description: "This request's id: quote it when reporting a problem", schema: { type: 'string' } },
};
/** A 429 and a 503 say when to try again. */
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };
/** On a POST answered from its Idempotency-Key's first result. */
const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the saved answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Original-Request-Id': {
    description: 'On a replay: the `Request-Id` of the request that made the saved answer (the `request_id` in its events)',
    schema: { type: 'string' },
  },
};

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const parameters = (schema: JsonSchema | undefined, where: 'path' | 'query') => {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
};

/** The document itself: not a route declaration. */
const fixedPaths = (): Record<string, Record<string, unknown>> => ({
  '/openapi.json': {
    get: {
      summary: 'This description (OpenAPI 3.1), unauthenticated',
      description: 'This document, generated from the codecs that validate every request. No key needed; its `servers` is the URL the request reached.',
      tags: ['meta'],
      operationId: 'openapi.get',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['openapi', 'info', 'paths'],
                properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
              },
            },
          },
        },
        // Unauthenticated calls count against the caller's address.
        '429': errorResponseRef('429'),
      },
    },
  },
});

/**
 * The error responses an operation can give: a read without parameters takes no input to refuse
 * (a GET ignores query parameters it does not declare), a read without an id in its path finds
 * nothing missing (an unknown cursor is a 400 or an empty page), only a write conflicts or has a
 * body to be too large or of the wrong type. A POST may always be refused for its Idempotency-Key.
 */
export const errorsOf = (r: Pick<RouteDef, 'method' | 'params' | 'query' | 'body'>): string[] => {
  const write = r.method !== 'get';
  const refusable = write || r.params !== undefined || r.query !== undefined || r.body !== undefined;
  return [
    ...(refusable ? ['400'] : []),
    '401',
    '402',
    '403',
    ...(write || r.params !== undefined ? ['404'] : []),
    '405',
    '408',
    ...(write ? ['409', '413', '415'] : []),
    '429',
    '431',
    '500',
    ...(write ? ['503'] : []),
  ];
};

/** The error responses every operation shares (components.responses), by status. */
export const errorResponseRef = (status: string) => ({ $ref: `#/components/responses/Error${status}` });

/** `links` of one route, resolved against the others: a target or parameter that does not exist is an error at start. */
const resolveLinks = (from: RouteDef, routes: readonly RouteDef[]) => {
  if (!from.links) return undefined;
  return Object.fromEntries(
    Object.entries(from.links).map(([name, link]) => {
      const [method, path] = link.operation.split(' ');
      const target = routes.find((r) => r.method === method.toLowerCase() && r.path === path);
      if (!target) throw new Error(`${from.method.toUpperCase()} ${from.path}: link ${name} names no operation (${link.operation})`);
      const known = new Set([...Object.keys(target.params?.jsonSchema.properties ?? {}), ...Object.keys(target.query?.jsonSchema.properties ?? {})]);
      const unknown = Object.keys(link.parameters).filter((p) => !known.has(p));
      if (unknown.length)
        throw new Error(`${from.method.toUpperCase()} ${from.path}: link ${name} fills unknown parameters of ${link.operation}: ${unknown.join(', ')}`);
      return [
        name,
        { operationId: operationIdOf(target.method, target.path), parameters: link.parameters, ...(link.description ? { description: link.description } : {}) },
      ];
    }),
  );
};

/** An operation's description: what it does, the scope its key needs, and how a retry behaves. */
const describe = (r: RouteDef): string =>
  [
    `${r.summary}.`,
    r.scope ? `Needs a key with the \`${r.scope}\` scope.` : 'Any valid key.',
    r.method === 'post' ? 'Send an `Idempotency-Key` to make a retry safe: the same key answers the first result and runs nothing again.' : '',
    r.method === 'get' && /_list$/.test(typeof r.response.codec.jsonSchema.title === 'string' ? r.response.codec.jsonSchema.title : '')
      ? 'Paginated: `limit` (1–100, default 20) and `starting_after` (the last id of the previous page, `next_cursor`).'
      : '',
  ]
    .filter(Boolean)
    .join(' ');

/** `customer_list` → `CustomerList`: a schema's title as its component name. */
const componentName = (title: string) =>
  title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** Both schemas at once (JSON Schema's `allOf` of the two), written as one: what `merged` needs. */
const conjunction = (a: JsonSchema, b: JsonSchema): JsonSchema => {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined || JSON.stringify(mine) === JSON.stringify(value)) out[key] = value;
    else if (key === 'required') out[key] = [...new Set([...(mine as string[]), ...(value as string[])])];
    else if (/^max/.test(key)) out[key] = Math.min(mine as number, value as number);
    else if (/^min/.test(key)) out[key] = Math.max(mine as number, value as number);
    else if (typeof mine === 'object' && typeof value === 'object' && !Array.isArray(mine)) out[key] = conjunction(mine as JsonSchema, value as JsonSchema);
    else throw new Error(`cannot write ${key} of two schemas as one`);
  }
  return out;
};

/**
 * A schema whose `anyOf` only narrows it (each branch untyped: "with at least one of these
 * fields", "items from this list, or '*' alone") written as the same rule in whole variants, one
 * per branch: the same validation, and generated clients get a real union (`{email…} | {phone…}`,
 * `('customer.created' | …)[] | '*'[]`) in which a misspelled field or an unknown value does
 * not compile.
 */
const narrowingVariants = (schema: JsonSchema): JsonSchema => {
  const { anyOf, title, description, examples, ...base } = schema;
  const narrowing =
    Array.isArray(anyOf) &&
    anyOf.length > 0 &&
    base.type !== undefined &&
    anyOf.every((a) => typeof a === 'object' && a !== null && !('type' in a) && !('$ref' in a));
  if (!narrowing) return schema;
  // The examples stay with the whole (each fits one variant, not every one).
  return {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(examples !== undefined ? { examples } : {}),
    anyOf: (anyOf as JsonSchema[]).map((branch) => conjunction(base, branch)),
  };
};

/**
 * Every titled schema (each resource, request body and nested struct) moved to
 * `components.schemas` under its name and referenced from where it was: generated clients get a
 * named type per resource (`components['schemas']['Customer']`). Two different schemas under one
 * title are an error at start. The codecs' own schema objects are copied, never changed.
 */
const hoistTitled = (value: unknown, schemas: Record<string, JsonSchema>): unknown => {
  if (Array.isArray(value)) return value.map((v) => hoistTitled(v, schemas));
  if (typeof value !== 'object' || value === null) return value;
  // Examples are values, not schemas: an article's example has a `title` too.
  const copy = narrowingVariants(
    Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'examples' || k === 'example' ? v : hoistTitled(v, schemas)])),
  );
  const title = (value as JsonSchema).title;
  if (typeof title !== 'string' || !('type' in copy || 'anyOf' in copy || 'allOf' in copy || 'oneOf' in copy)) return copy;
  const name = componentName(title);
  const known = schemas[name];
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(copy)) throw new Error(`two different schemas are titled ${title}`);
  schemas[name] = copy;
  return { $ref: `#/components/schemas/${name}` };
};

/**
 * OpenAPI 3.1, generated from the same route declarations and codecs that validate requests.
 * `extraPaths` and `extraSchemas`: operations that are not route declarations (the MCP
 * endpoint), and the schemas they name.
 */
export const openApiDocument = (
  routes: readonly RouteDef[],
  info: {
    version: string;
    serverUrl: string;
    extraPaths?: Record<string, Record<string, unknown>>;
    extraSchemas?: Record<string, JsonSchema>;
    /** Each tag's description, in the order a reference page shows them. */
    tags?: readonly { name: string; description: string }[];
    /** The webhook events, under `webhooks` with this tag. */
    webhooks?: { tag: string; events: readonly WebhookDef[] };
  },
) => {
  const paths: Record<string, Record<string, unknown>> = { ...fixedPaths(), ...info.extraPaths };
  for (const r of routes) {
    const path = openApiPath(r.path);
    const errorCodes = errorsOf(r);
    paths[path] = {
      ...paths[path],
      [r.method]: {
        summary: r.summary,
        description: describe(r),
        tags: [r.tag],
        operationId: operationIdOf(r.method, r.path),
        ...(r.scope ? { 'x-required-scope': r.scope } : {}),
        parameters: [
          ...parameters(r.params?.jsonSchema, 'path'),
          ...parameters(r.query?.jsonSchema, 'query'),
          ...(r.method === 'post' ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }] : []),
        ],
        ...(r.body ? { requestBody: { required: !r.bodyOptional, content: { 'application/json': { schema: r.body.jsonSchema } } } } : {}),
        responses: {
          [String(r.response.status)]: {
            description: r.response.description,
            headers: r.method === 'post' ? { ...RATE_LIMIT_HEADERS, ...REPLAYED } : RATE_LIMIT_HEADERS,
            content: { 'application/json': { schema: toSchema(r.response.codec) } },
            ...(r.links ? { links: resolveLinks(r, routes) } : {}),
          },
          ...Object.fromEntries(errorCodes.map((c) => [c, errorResponseRef(c)])),
        },
      },
    };
  }
  const named: Record<string, JsonSchema> = {};
  const hoisted = hoistTitled(paths, named) as typeof paths;
  const webhooks = info.webhooks ? hoistTitled(webhookOperations(info.webhooks.events, info.webhooks.tag), named) : undefined;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Customer Support Platform API',
      version: info.version,
      description: DESCRIPTION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    ...(info.tags ? { tags: info.tags } : {}),
    paths: hoisted,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_… or sk_test_…' } },
      schemas: {
        Error: envelopeSchema,
        JsonValue: JSON_VALUE_SCHEMA,
        FreeJsonValue: FREE_JSON_VALUE_SCHEMA,
        FreeJsonItem: FREE_JSON_ITEM_SCHEMA,
        ...info.extraSchemas,
        ...Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b))),
      },
      // 408 and 431 are answered before the request reaches the API (server/serve.ts): the
      // envelope, without the headers the API adds.
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([c, description]) => [
          `Error${c}`,
          {
            description,
            ...(c === '408' || c === '431' ? {} : { headers: c === '429' || c === '503' ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RATE_LIMIT_HEADERS }),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: ERROR_EXAMPLES[c] } },
          },
        ]),
      ),
    },
  };
};
