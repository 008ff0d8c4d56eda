import http from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Application, loadConfig, Logger, openEngines } from '@support/application';
import { createHttpApp, ROUTES } from '@support/api';
import type { Collection, CollectionSpec, Doc } from '@support/readstore';
import { client } from '../support/client';
import { expectError } from '../support/expect';
import { Agent } from '@support/agent';
import { apiOf } from '@support/http';
import { serviceFixture } from '../support/fixture';
import { removeDir, tempDir } from '../support/service';

const e2e = serviceFixture();

t.test('unknown routes and methods answer in the envelope', async (t) => {
  expectError(t, await e2e.ws.api.get('/nothing-here'), 404, 'not_found');
  expectError(t, await client(e2e.svc.baseUrl).get('/nothing-here'), 404, 'not_found');
  const notAllowed = await e2e.ws.api.delete('/customers');
  expectError(t, notAllowed, 405, 'method_not_allowed');
  t.equal(notAllowed.headers.get('allow'), 'HEAD, GET, POST');
  const res = await fetch(`${e2e.svc.baseUrl.replace(/\/v1$/, '')}/elsewhere`);
  t.equal(res.status, 404);
  t.match(await res.json(), { success: false, error: { statusCode: 404, code: 'not_found' } });
});

/** A raw request (fetch refuses methods like TRACE and sets its own encodings). */
const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
  new Promise<{ status: number; allow: string | undefined; body: any }>((resolve, reject) => {
    const url = new URL(e2e.svc.baseUrl + path);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers: { Authorization: `Bearer ${e2e.ws.key}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

t.test('any method on a known path is 405 with Allow, on an unknown path 404 (never 501)', async (t) => {
  for (const method of ['TRACE', 'PROPFIND', 'PURGE']) {
    const known = await raw(method, '/customers');
    t.equal(known.status, 405, `${method} /customers`);
    t.equal(known.allow, 'HEAD, GET, POST');
    t.match(known.body, { success: false, error: { statusCode: 405, code: 'method_not_allowed' } });
    const unknown = await raw(method, '/nothing-here');
    t.equal(unknown.status, 404, `${method} /nothing-here`);
    t.match(unknown.body, { success: false, error: { statusCode: 404, code: 'not_found' } });
  }
  const options = await raw('OPTIONS', '/customers');
  t.equal(options.status, 204);
  t.equal(options.allow, 'HEAD, GET, POST');
});

t.test('Content-Encoding: decoded when valid, 400 when the body does not decode, 415 when unknown', async (t) => {
  const json = { 'Content-Type': 'application/json' };
  const body = Buffer.from(JSON.stringify({ name: 'zipped' }));
  t.equal((await raw('POST', '/tags', { ...json, 'Content-Encoding': 'gzip' }, gzipSync(body))).status, 201, 'a gzip body is read');
  for (const encoding of ['gzip', 'deflate', 'br']) {
    const r = await raw('POST', '/tags', { ...json, 'Content-Encoding': encoding }, body);
    t.strictSame([r.status, r.body?.error?.statusCode], [400, 400], `plain body labelled ${encoding}`);
  }
  const cut = gzipSync(Buffer.from(JSON.stringify({ name: 'cut short' }))).subarray(0, 12);
  t.equal((await raw('POST', '/tags', { ...json, 'Content-Encoding': 'gzip' }, cut)).status, 400, 'a truncated gzip body');
  const foo = await raw('POST', '/tags', { ...json, 'Content-Encoding': 'foo' }, body);
  t.strictSame([foo.status, foo.body?.error?.code], [415, 'unsupported_media_type']);
  t.notOk(
    e2e.svc.output.some((l) => /unhandled error/.test(l)),
    'nothing reached the 500 path',
  );
});

t.test('a body that is not valid UTF-8 is refused (400); valid multibyte text is kept', async (t) => {
  const json = { 'Content-Type': 'application/json' };
  const bad = Buffer.concat([Buffer.from('{"email":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('@example.com"}')]);
  const r = await raw('POST', '/customers', json, bad);
  t.strictSame([r.status, r.body?.error?.message], [400, 'The request body is not valid UTF-8']);
  const truncated = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xc3]), Buffer.from('"}')]);
  t.equal((await raw('POST', '/tags', json, truncated)).status, 400, 'a cut multibyte sequence');
  const good = await raw('POST', '/tags', json, Buffer.from(JSON.stringify({ name: 'café ✓ 日本' })));
  t.equal(good.status, 201);
  t.equal(good.body.name, 'café ✓ 日本');
});

t.test('a route whose body is required answers 400 to a request with none', async (t) => {
  const tag = (await e2e.ws.api.post('/tags', { name: 'needs-body' })).body;
  for (const path of [`/tags/${tag.id}`, '/agent']) {
    const r = await raw('PATCH', path);
    t.equal(r.status, 400, `PATCH ${path} without a body`);
    t.match(r.body?.error?.message, /body is required/);
  }
  t.equal((await e2e.ws.api.post('/conversations')).status, 201, 'an optional body may be absent');
});

t.test('malformed JSON, wrong content type and oversized bodies', async (t) => {
  const bad = await e2e.ws.api.post('/tags', '{"name":');
  expectError(t, bad, 400);
  t.match(bad.body.error.message, /not valid JSON/);
  expectError(t, await e2e.ws.api.post('/tags', '"just a string"'), 400);
  expectError(t, await e2e.ws.api.post('/tags', '[1,2]'), 400);
  expectError(t, await e2e.ws.api.post('/tags', 'name=x', { 'Content-Type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
  const big = await e2e.ws.api.post('/tags', { name: 'x'.repeat(1_100_000) });
  expectError(t, big, 413, 'payload_too_large');
});

t.test('a key named __proto__ is refused at any depth, by name, as the document says; the word itself is fine as a value', async (t) => {
  const conversation = (await e2e.ws.api.post('/conversations', {})).body;
  for (const body of [
    '{"content":"hi","channel_metadata":{"__proto__":{"admin":true}}}',
    '{"content":"hi","attachments":[{"meta":[{"\\u005f_proto__":1}]}]}',
  ]) {
    const r = await e2e.ws.api.post(`/conversations/${conversation.id}/messages`, body);
    expectError(t, r, 400);
    t.strictSame(r.body.error.message, 'Request body has a key named __proto__, which is refused at any depth');
  }
  t.equal((await e2e.ws.api.post(`/conversations/${conversation.id}/messages`, { content: '__proto__', channel_metadata: { note: '__proto__' } })).status, 201);
  const fine = await e2e.ws.api.post('/customers', { external_id: 'proto-fine', metadata: { note: '__proto__', proto: { constructor: 1 } } });
  t.equal(fine.status, 201);
  t.strictSame(fine.body.metadata, { note: '__proto__', proto: { constructor: 1 } });
  const doc = (await e2e.ws.api.get('/openapi.json')).body;
  t.match(doc.paths['/conversations/{id}/messages'].post.requestBody.content['application/json'].schema.properties.channel_metadata, {
    type: 'object',
    propertyNames: { not: { const: '__proto__' } },
    additionalProperties: { $ref: '#/components/schemas/FreeJsonValue' },
  });
  t.match(doc.components.schemas.FreeJsonValue.anyOf[3], { type: 'object', propertyNames: { not: { const: '__proto__' } } });
  t.match(doc.components.schemas.JsonValue.anyOf[2], { type: 'object', propertyNames: { not: { const: '__proto__' } } });
});

t.test('schema failures name every offending field, without a code', async (t) => {
  const r = await e2e.ws.api.post('/customers', { email: 1, phone: true, metadata: [] });
  expectError(t, r, 400);
  t.equal(r.body.error.code, undefined);
  t.match(r.body.error.message, /email must be a string/);
  t.match(r.body.error.message, /phone must be a string/);
  t.match(r.body.error.message, /metadata must be an object/);
  t.strictSame(
    r.body.error.details.fields.map((f: { field: string }) => f.field),
    ['email', 'phone', 'metadata'],
  );
});

t.test('each refused field says why for programs too: a code per field, beside the message', async (t) => {
  const fields = async (r: Promise<{ status: number; body: any }>) => {
    const res = await r;
    t.equal(res.status, 400);
    return (res.body.error.details.fields as { field: string; code: string }[]).map((f) => [f.field, f.code]);
  };
  let deep: unknown = 1;
  for (let i = 0; i < 25; i++) deep = { a: deep };
  t.strictSame(
    await fields(
      e2e.ws.api.post('/customers', {
        email: 1,
        name: 'n'.repeat(300),
        phone: '',
        emial: 'x@example.com',
        external_id: 'a\u0000b',
        metadata: { $set: 1, nested: deep, grid: [[1]] },
      }),
    ),
    [
      ['emial', 'unknown_field'],
      ['email', 'invalid_type'],
      ['phone', 'too_short'],
      ['name', 'too_long'],
      ['external_id', 'invalid_characters'],
      ['metadata.$set', 'invalid_characters'],
    ],
  );
  t.strictSame(await fields(e2e.ws.api.get('/customers?limit=500&status=gone')), [
    ['limit', 'out_of_range'],
    ['status', 'invalid_value'],
  ]);
  t.strictSame(await fields(e2e.ws.api.post('/customers', { email: 'a@example.com', metadata: { nested: deep } })), [
    [`metadata.nested${'.a'.repeat(19)}`, 'too_deep'],
  ]);
  t.strictSame(await fields(e2e.ws.api.post('/customers', { email: 'a@example.com', metadata: { grid: [[1]] } })), [['metadata.grid.0', 'invalid_structure']]);
  t.strictSame(await fields(e2e.ws.api.get('/conversations/not-an-id')), [['id', 'invalid_format']]);
  t.strictSame(await fields(e2e.ws.api.post('/webhook_endpoints', { enabled_events: ['customer.created'] })), [['url', 'required']]);
});

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
  t.match(ids, {
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
  });
});

t.test('the OpenAPI document names this service by its absolute URL; forwarded headers are not trusted by default', async (t) => {
  const r = await client(e2e.svc.baseUrl).get('/openapi.json', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' });
  t.strictSame(r.body.servers, [{ url: e2e.svc.baseUrl, description: 'This service' }]);
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
    ['201', '400', '401', '402', '403', '404', '405', '408', '409', '413', '415', '429', '431', '500'],
    'a write: every error it can give',
  );
  const errors = (path: string, method: string) => Object.keys(r.body.paths[path][method].responses).filter((c) => c >= '400');
  t.strictSame(errors('/customers', 'get'), ['400', '401', '402', '403', '405', '408', '429', '431', '500'], 'a list: no 404, 409, 413 or 415');
  t.strictSame(errors('/customers/{id}', 'get'), ['400', '401', '402', '403', '404', '405', '408', '429', '431', '500'], 'a read by id: 404');
  t.strictSame(errors('/me', 'get'), ['401', '402', '403', '405', '408', '429', '431', '500'], 'a read without input: nothing to refuse');
  t.match(r.body.paths['/customers'].post.requestBody.content['application/json'].schema, {
    anyOf: [{ required: ['email'] }, { required: ['phone'] }, { required: ['external_id'] }],
    properties: { phone: { pattern: '[0-9]' } },
  });
  t.match(r.body.paths['/conversations'].post.requestBody.content['application/json'].schema.properties.customer, { anyOf: Array });
  t.ok(r.body.paths['/mcp']?.post, 'and the MCP endpoint');
  for (const path of ['/agent', '/agent/messages', '/agent/search']) t.ok(r.body.paths[path], path);
  t.match(r.body.paths['/agent/messages'].post.responses['200'].content['application/json'].schema, {
    properties: { object: { const: 'agent_response' }, credits_used: { type: 'integer' } },
  });
  t.match(r.body.paths['/agent'].patch.requestBody.content['application/json'].schema.properties, {
    name: { minLength: 1, maxLength: 100 },
    custom_instructions: { maxLength: 2000 },
  });
  const create = r.body.paths['/customers'].post;
  t.match(create.requestBody.content['application/json'].schema, {
    type: 'object',
    additionalProperties: false,
    properties: { email: { type: 'string' }, metadata: { type: 'object' } },
  });
  t.match(create.responses['201'].content['application/json'].schema, { properties: { object: { const: 'customer' } } });
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

t.test('an unexpected failure is a 500 envelope with a request id, and no stack', async (t) => {
  const sdir = tempDir();
  const logged: string[] = [];
  const log: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (msg, f) => {
      logged.push(JSON.stringify({ msg, ...f }));
    },
    child: () => log,
  };
  const engines = openEngines({ dataDir: sdir });
  // The customers table "fails", as a broken disk would; everything else works.
  const reads = engines.reads;
  const broken = Object.create(reads);
  broken.collection = <T extends Doc>(spec: CollectionSpec): Collection<T> => {
    const c = reads.collection<T>(spec);
    return spec.name === 'customers'
      ? {
          ...c,
          get: c.get.bind(c),
          getText: c.getText.bind(c),
          find: async () => {
            throw new Error('SQLITE_IOERR: disk I/O error at /secret/path');
          },
          findText: async () => {
            throw new Error('SQLITE_IOERR: disk I/O error at /secret/path');
          },
        }
      : c;
  };
  const app = new Application({ config: { ...loadConfig({}), dataDir: sdir }, log, engines: { ...engines, reads: broken }, projector: true });
  await app.start();
  const { workspace } = await app.workspaces.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Broken' });
  const { key, position } = await app.keys.create({ workspaceId: null, actor: 'test', requestId: null }, { workspaceId: workspace.id, name: 'k' });
  await app.settle(position);
  const server = createHttpApp(apiOf(app, new Agent(app))).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    server.close();
    await app.stop();
    removeDir(sdir);
  });
  const api = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, key);
  const r = await api.get('/customers');
  expectError(t, r, 500, 'internal_error');
  t.match(r.body.error.details.request_id, /^req_/);
  t.equal(r.body.error.details.request_id, r.headers.get('request-id'));
  t.notMatch(r.text, /SQLITE|secret|at .*\.js/, 'nothing internal leaks');
  const entry = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
  t.equal(entry?.request_id, r.body.error.details.request_id, 'the log names the request id');
  t.match(entry?.error, /SQLITE_IOERR[\s\S]*at /, 'the log has the stack');
  t.equal((await api.get('/me')).status, 200, 'the service keeps serving');
});
