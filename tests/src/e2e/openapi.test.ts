import t from 'tap';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES } from '@support/api';
import { WEBHOOK_EVENT_TYPES } from '@support/webhook-endpoints';
import { client } from '../support/client';
import { conformsTo } from '../support/openapi';
import { serviceFixture } from '../support/fixture';
import { removeDir, ROOT, tempDir } from '../support/service';

/** The OpenAPI document as clients and generators read it: ids, servers, coverage, error responses, links. */
const e2e = serviceFixture();

t.test('operationIds read as resource then action, each unique', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  const ids: Record<string, string> = {};
  for (const [path, methods] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) ids[`${method.toUpperCase()} ${path}`] = op.operationId;
  }
  t.strictSame(new Set(Object.values(ids)).size, Object.keys(ids).length, 'unique');
  t.strictSame(
    Object.values(ids).filter((id) => !/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/.test(id)),
    [],
    'resource.action',
  );
  // Compared whole (t.match would take a string as a part of the id).
  const expected: Record<string, string> = {
    'POST /customers': 'customers.create',
    'GET /customers': 'customers.list',
    'GET /customers/{id}': 'customers.get',
    'PATCH /customers/{id}': 'customers.update',
    'DELETE /tags/{id}': 'tags.delete',
    'GET /knowledge_base/articles': 'knowledgeBase.articles.list',
    'POST /conversations/{id}/messages': 'conversations.messages.create',
    'POST /webhook_endpoints/{id}/roll_secret': 'webhookEndpoints.rollSecret',
    'POST /webhook_endpoints/{id}/deliveries/{deliveryId}/retry': 'webhookEndpoints.deliveries.retry',
    'POST /agent/search': 'agent.search',
    'PATCH /agent': 'agent.update',
    'GET /me': 'me.get',
    'GET /': 'root.get',
    'GET /openapi.json': 'openapi.get',
    'POST /mcp': 'mcp.call',
  };
  t.strictSame(Object.fromEntries(Object.keys(expected).map((k) => [k, ids[k]])), expected);
});

t.test('the OpenAPI document names this service by its absolute URL; forwarded headers are not trusted by default', async (t) => {
  const r = await client(e2e.svc.baseUrl).get('/openapi.json', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' });
  t.strictSame(r.body.servers, [{ url: e2e.svc.baseUrl, description: 'This service' }]);
  t.equal(r.headers.get('vary'), 'Host, X-Forwarded-Host', 'a shared cache keys it by the host it names');
});

t.test('the OpenAPI document is served without a key and covers every route', async (t) => {
  const r = await client(e2e.svc.baseUrl).get('/openapi.json');
  t.equal(r.status, 200);
  t.equal(r.body.openapi, '3.1.0');
  for (const route of ROUTES) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    t.ok(r.body.paths[path]?.[route.method], `${route.method.toUpperCase()} ${path}`);
  }
  t.ok(r.body.paths['/openapi.json']?.get, 'the document describes itself');
  t.strictSame(
    Object.keys(r.body.paths['/customers'].post.responses).sort(),
    ['201', '400', '401', '402', '403', '404', '405', '408', '409', '413', '415', '429', '431', '500', '503'],
    'a write: every error it can give',
  );
  const errors = (path: string, method: string) => Object.keys(r.body.paths[path][method].responses).filter((c) => c >= '400');
  t.strictSame(errors('/customers', 'get'), ['400', '401', '402', '403', '405', '408', '429', '431', '500'], 'a list: no 404, 409, 413 or 415');
  t.strictSame(errors('/customers/{id}', 'get'), ['400', '401', '402', '403', '404', '405', '408', '429', '431', '500'], 'a read by id: 404');
  t.strictSame(errors('/me', 'get'), ['401', '402', '403', '405', '408', '429', '431', '500'], 'a read without input: nothing to refuse');
  // The identity rule as a union of whole variants: a generated client's type needs one of them.
  t.match(r.body.paths['/customers'].post.requestBody.content['application/json'].schema, {
    anyOf: [
      { type: 'object', required: ['email'], additionalProperties: false, properties: { phone: { pattern: '[0-9]' } } },
      { type: 'object', required: ['phone'] },
      { type: 'object', required: ['external_id'] },
    ],
  });
  // Named schemas are components, referenced where they are used.
  const ref = (schema: { $ref?: string }) => (schema.$ref ? r.body.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);
  t.strictSame(r.body.paths['/conversations'].post.requestBody.content['application/json'].schema.properties.customer, {
    $ref: '#/components/schemas/CustomerInput',
  });
  t.match(ref(r.body.paths['/conversations'].post.requestBody.content['application/json'].schema.properties.customer), { anyOf: Array });
  t.ok(r.body.paths['/mcp']?.post, 'and the MCP endpoint');
  for (const path of ['/agent', '/agent/messages', '/agent/search']) t.ok(r.body.paths[path], path);
  t.match(ref(r.body.paths['/agent/messages'].post.responses['200'].content['application/json'].schema), {
    properties: { object: { const: 'agent_response' }, credits_used: { type: 'integer' } },
  });
  t.match(ref(r.body.paths['/agent'].patch.requestBody.content['application/json'].schema).properties, {
    name: { minLength: 1, maxLength: 100 },
    custom_instructions: { maxLength: 2000 },
  });
  const create = r.body.paths['/customers'].post;
  t.match(create.requestBody.content['application/json'].schema.anyOf[0], {
    type: 'object',
    additionalProperties: false,
    properties: { email: { type: 'string' }, metadata: { type: 'object' } },
  });
  t.strictSame(create.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Customer' });
  t.match(ref(create.responses['201'].content['application/json'].schema), { properties: { object: { const: 'customer' } } });
  t.match(ref(r.body.paths['/customers'].get.responses['200'].content['application/json'].schema), {
    properties: { data: { items: { $ref: '#/components/schemas/Customer' } } },
  });
  const list = r.body.paths['/customers'].get.parameters;
  t.match(
    list.find((p: { name: string }) => p.name === 'limit'),
    { in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
  );
  t.match(r.body.paths['/tags'].post.requestBody.content['application/json'].schema, {
    required: ['name'],
    properties: { name: { minLength: 1, maxLength: 100 } },
  });
});

t.test('links: a created id feeds its get, patch and delete; every link names an operation and its parameters', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  t.strictSame(doc.paths['/customers'].post.responses['201'].links, {
    'customers.get': { operationId: 'customers.get', parameters: { id: '$response.body#/id' } },
    'customers.update': { operationId: 'customers.update', parameters: { id: '$response.body#/id' } },
  });
  t.strictSame(Object.keys(doc.paths['/webhook_endpoints'].post.responses['201'].links), [
    'webhookEndpoints.get',
    'webhookEndpoints.update',
    'webhookEndpoints.delete',
    'webhookEndpoints.rollSecret',
    'webhookEndpoints.test',
    'webhookEndpoints.deliveries.list',
  ]);
  const operations = new Map<string, { parameters?: { name: string }[] }>();
  for (const methods of Object.values<Record<string, { operationId: string; parameters?: { name: string }[] }>>(doc.paths)) {
    for (const op of Object.values(methods)) operations.set(op.operationId, op);
  }
  let count = 0;
  for (const [path, methods] of Object.entries<
    Record<string, { responses: Record<string, { links?: Record<string, { operationId: string; parameters: Record<string, string> }> }> }>
  >(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      for (const link of Object.values(op.responses).flatMap((r) => Object.values(r.links ?? {}))) {
        count++;
        const target = operations.get(link.operationId);
        t.ok(target, `${method} ${path} -> ${link.operationId}`);
        const names = new Set((target?.parameters ?? []).map((p) => p.name));
        for (const [name, expression] of Object.entries(link.parameters)) {
          t.ok(names.has(name), `${link.operationId} has a parameter ${name}`);
          t.match(expression, /^\$(response\.body#\/|request\.path\.)/);
        }
      }
    }
  }
  t.ok(count >= 30, `${count} links`);
});

t.test('webhooks: every event type an endpoint can subscribe to, and ping, each with its signed headers and its data', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  t.strictSame(Object.keys(doc.webhooks).sort(), [...WEBHOOK_EVENT_TYPES, 'ping'].sort());
  for (const [type, { post }] of Object.entries<any>(doc.webhooks)) {
    t.strictSame(
      post.parameters.map((p: { name: string }) => p.name),
      ['Service-Signature', 'Service-Event-Id', 'Service-Event-Type', 'Service-Webhook-Id'],
      type,
    );
    const body = post.requestBody.content['application/json'].schema;
    t.strictSame([body.required, body.properties.type.const], [['id', 'type', 'created_at', 'data'], type]);
    t.match(body.properties.data.$ref, /^#\/components\/schemas\/(Conversation|Message|Customer|Ticket|TicketSlaSignal|WebhookPing)$/, type);
  }
});

t.test('realistic examples: every resource, request body, path id, error and webhook has one, and each conforms to its schema', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  const schemas: Record<string, any> = doc.components.schemas;
  const target = (schema: any) => (schema.$ref ? schemas[schema.$ref.split('/').pop()] : schema);
  const checks: [where: string, schema: object, example: unknown][] = [];
  // Resources: every named object with an `object` field (lists are shown from their items').
  const resources = Object.entries(schemas).filter(([, s]) => s.properties?.object && s.properties.object.const !== 'list');
  t.ok(resources.length >= 24, `${resources.length} resources`);
  for (const [name, s] of resources) {
    t.ok(Array.isArray(s.examples), `${name} has an example`);
    for (const e of s.examples ?? []) checks.push([name, { $ref: `#/components/schemas/${name}` }, e]);
  }
  for (const [path, ops] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(ops)) {
      const body = op.requestBody?.content['application/json'].schema;
      if (body && !path.startsWith('/mcp')) {
        const examples = target(body).examples ?? target(body).anyOf?.[0]?.examples;
        t.ok(Array.isArray(examples), `${method.toUpperCase()} ${path}: its body has an example`);
        for (const e of examples ?? []) checks.push([`${method} ${path} body`, body, e]);
      }
      for (const p of (op.parameters ?? []).filter((p: any) => p.in === 'path')) {
        t.ok(Array.isArray(p.schema.examples), `${method.toUpperCase()} ${path}: {${p.name}} has an example`);
        for (const e of p.schema.examples ?? []) checks.push([`${method} ${path} {${p.name}}`, p.schema, e]);
      }
    }
  for (const [name, r] of Object.entries<any>(doc.components.responses)) {
    const { schema, example } = r.content['application/json'];
    t.ok(example, `${name} has an example`);
    checks.push([name, schema, example]);
    t.equal(example.error.statusCode, Number(name.replace('Error', '')), `${name}: its example is of its status`);
  }
  for (const [type, { post }] of Object.entries<any>(doc.webhooks)) {
    const { schema } = post.requestBody.content['application/json'];
    t.ok(Array.isArray(schema.examples), `webhook ${type} has an example`);
    for (const e of schema.examples ?? []) checks.push([`webhook ${type}`, schema, e]);
  }
  for (const [where, schema, example] of checks) t.strictSame(conformsTo(doc, schema)(example), [], `${where}: its example conforms`);
  t.notMatch(JSON.stringify(checks.map(([, , e]) => e)), /"string"/, 'no placeholder values');
});

t.test('Redocly lint with its recommended rules: no error, no warning', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  const dir = tempDir('redocly-');
  t.teardown(() => removeDir(dir));
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  const out = await new Promise<string>((resolve) =>
    execFile(
      process.execPath,
      [cli, 'lint', file, '--extends', 'recommended', '--format', 'json'],
      { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 << 20 },
      (_err, stdout) => resolve(stdout),
    ),
  );
  const report = JSON.parse(out) as { totals: Record<string, number>; problems: { ruleId: string; message: string }[] };
  t.strictSame(
    { totals: report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message}`) },
    { totals: { errors: 0, warnings: 0, ignored: 0 }, problems: [] },
  );
});

t.test('every resource is a named schema a generated client can import', async (t) => {
  const doc = (await client(e2e.svc.baseUrl).get('/openapi.json')).body;
  const names = Object.keys(doc.components.schemas);
  for (const name of [
    'Customer',
    'Conversation',
    'Message',
    'Tag',
    'Ticket',
    'KnowledgeBaseArticle',
    'CannedResponse',
    'Channel',
    'WebhookEndpoint',
    'WebhookDelivery',
    'Event',
    'Agent',
    'AgentResponse',
  ])
    t.ok(names.includes(name), name);
  t.strictSame(
    doc.tags.map((tag: { name: string }) => tag.name),
    ['meta', 'agent', 'customers', 'tags', 'tickets', 'knowledge_base', 'canned_responses', 'channels', 'conversations', 'webhooks', 'webhook_events'],
  );
  const undescribed = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops as Record<string, { description?: string }>)
      .filter(([, op]) => !op.description)
      .map(([m]) => `${m.toUpperCase()} ${p}`),
  );
  t.strictSame(undescribed, [], 'every operation has a description');
});
