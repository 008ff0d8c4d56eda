import http from 'node:http';
import { workspacesOf } from '@support/workspaces';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Application, loadConfig, Logger, openEngines } from '@support/application';
import { createHttpApp } from '@support/api';
import type { Collection, CollectionSpec, Doc } from '@support/readstore';
import { client } from '../support/client';
import { expectError } from '../support/expect';
import { apiOf } from '@support/http';
import { serviceFixture } from '../support/fixture';
import { conformsTo } from '../support/openapi';
import { removeDir, tempDir } from '../support/service';
import { CATALOG } from '@support/catalog';

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

t.test("each error links to its section of the reference page: the operation's answer with that status", async (t) => {
  const docs = `${e2e.svc.baseUrl}/docs#`;
  const linkOf = (r: { body: { error: { documentation_url?: string } } }) => r.body.error.documentation_url;
  // Raised before routing (no key) and after (an unknown id), on a path with a parameter.
  t.equal(linkOf(await client(e2e.svc.baseUrl).get('/customers')), `${docs}tag/customers/GET/customers.responses.401`);
  t.equal(linkOf(await e2e.ws.api.get('/customers/cus_01JDQ7ZK3V8WQ2M4N6P8R0T2V4')), `${docs}tag/customers/GET/customers/%7Bid%7D.responses.404`);
  t.equal(
    linkOf(await e2e.ws.api.post('/conversations/conv_01JDQ7ZK3V8WQ2M4N6P8R0T2V4/messages', { content: 'x' })),
    `${docs}tag/conversations/POST/conversations/%7Bid%7D/messages.responses.404`,
  );
  t.equal(linkOf(await e2e.ws.api.post('/customers', { emial: 'x' })), `${docs}tag/customers/POST/customers.responses.400`);
  // A status the operation does not document links to the operation; no operation, to the errors section.
  t.equal(linkOf(await e2e.ws.api.delete('/customers')), `${docs}description/errors`);
  t.equal(linkOf(await e2e.ws.api.get('/nothing-here')), `${docs}description/errors`);
  // As the document's Error schema says (a URI: the fragment's braces are percent-encoded).
  const doc = (await e2e.ws.api.get('/openapi.json')).body;
  const missing = await e2e.ws.api.get('/customers/cus_01JDQ7ZK3V8WQ2M4N6P8R0T2V4');
  t.strictSame(conformsTo(doc, { $ref: '#/components/schemas/Error' })(missing.body), []);
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
  const bare = await e2e.ws.api.post('/tags', '"just a string"');
  expectError(t, bare, 400);
  t.match(bare.body.error.message, /bare value/, 'valid JSON, but not an object: the message does not call it invalid JSON alone');
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
  const app = new Application({ catalog: CATALOG, config: { ...loadConfig({}), dataDir: sdir }, log, engines: { ...engines, reads: broken }, projector: true });
  await app.start();
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Broken' });
  const { key, position } = await workspacesOf(app).keys.create(
    { workspaceId: null, actor: 'test', requestId: null },
    { workspaceId: workspace.id, name: 'k' },
  );
  await app.settle(position);
  const server = createHttpApp(apiOf(app)).listen(0, '127.0.0.1');
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
