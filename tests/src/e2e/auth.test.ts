import t from 'tap';
import { client } from '../support/client';
import { expectError } from '../support/expect';
import { admin, adminJson } from '../support/service';
import { until } from '../support/wait';
import { keyFor, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

const e2e = serviceFixture({ tenant: false });

t.test('GET / and GET /me describe the API and the key', async (t) => {
  const { api, workspaceId } = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Acme Corp' });
  const root = await api.get('/');
  t.equal(root.status, 200);
  t.match(root.body, { object: 'api', version: '1.0.0', name: String, documentation_url: /\/v1\/docs$/ });
  const me = await api.get('/me');
  t.equal(me.status, 200);
  t.match(me.body, {
    object: 'workspace_context',
    workspace: { object: 'workspace', id: workspaceId, name: 'Acme Corp', slug: 'acme-corp' },
    environment: 'live',
  });
  t.equal(me.body.scopes.length, 12);
});

t.test('a key the admin CLI has just created works on the very next request, in a new workspace too', async (t) => {
  // As the README has a newcomer do: create, then call at once (it answered 401 for some 60 ms while the service projected it)
  for (const name of ['First', 'Second', 'Third']) {
    const ws = await adminJson<{ id: string }>(e2e.dir, 'workspace', 'create', '--name', name);
    const k = await adminJson<{ key: string }>(e2e.dir, 'key', 'create', '--workspace', ws.id, '--name', 'backend');
    const me = await client(e2e.svc.baseUrl, k.key).get('/me');
    t.strictSame([me.status, me.body.workspace?.id], [200, ws.id], name);
  }
});

t.test('test-environment keys say so', async (t) => {
  const { api } = await tenant(e2e.svc.baseUrl, e2e.dir, { keyArgs: ['--environment', 'test'] });
  t.equal((await api.get('/me')).body.environment, 'test');
});

t.test('401 for a missing, malformed, unknown, expired or revoked key', async (t) => {
  const anon = client(e2e.svc.baseUrl);
  expectError(t, await anon.get('/me'), 401, 'unauthorized');
  expectError(t, await anon.get('/me', { Authorization: 'Basic abc' }), 401, 'unauthorized');
  expectError(t, await anon.get('/me', { Authorization: 'Bearer ' }), 401, 'unauthorized');
  expectError(t, await client(e2e.svc.baseUrl, 'sk_live_nonsense').get('/me'), 401, 'unauthorized');
  const { key, keyId, workspaceId } = await tenant(e2e.svc.baseUrl, e2e.dir);
  // Same key id, wrong secret: the constant-time comparison must refuse it.
  const forged = key.slice(0, -5) + (key.endsWith('AAAAA') ? 'BBBBB' : 'AAAAA');
  expectError(t, await client(e2e.svc.baseUrl, forged).get('/me'), 401, 'unauthorized');
  const expired = await adminJson<{ key: string }>(
    e2e.dir,
    'key',
    'create',
    '--workspace',
    workspaceId,
    '--name',
    'old',
    '--expires-at',
    '2020-01-01T00:00:00Z',
  );
  // The projector follows the log: once a key made after it works, the expired one is known too,
  // so the 401 below says "expired", not "not projected yet".
  await keyFor(e2e.svc.baseUrl, e2e.dir, workspaceId);
  expectError(t, await client(e2e.svc.baseUrl, expired.key).get('/me'), 401, 'unauthorized');
  const api = client(e2e.svc.baseUrl, key);
  t.equal((await api.get('/me')).status, 200);
  t.strictSame(await adminJson(e2e.dir, 'key', 'revoke', '--id', keyId), { id: keyId, revoked: true });
  // How soon (the 500 ms cache) is tested on an injected clock in application/authenticate.test.ts.
  await until(async () => (await api.get('/me')).status === 401, 10_000, 50, 'the revocation applied');
  expectError(t, await api.get('/me'), 401, 'unauthorized');
});

t.test('403 insufficient_scope names the missing scope', async (t) => {
  const { api, workspaceId } = await tenant(e2e.svc.baseUrl, e2e.dir, { keyArgs: ['--access', 'read_only'] });
  t.equal((await api.get('/customers')).status, 200);
  const r = await api.post('/customers', { email: 'x@example.com' });
  expectError(t, r, 403, 'insufficient_scope');
  t.strictSame(r.body.error.details, { required: ['customers:write'] });
  const chat = await keyFor(e2e.svc.baseUrl, e2e.dir, workspaceId, ['--access', 'chat_only']);
  t.strictSame((await chat.api.get('/me')).body.scopes, ['agent:chat', 'agent:read']);
  const list = await chat.api.get('/customers');
  expectError(t, list, 403, 'insufficient_scope');
  t.strictSame(list.body.error.details.required, ['customers:read']);
  const tags = await chat.api.get('/tags');
  t.strictSame(tags.body.error.details.required, ['conversations:read']);
  const custom = await keyFor(e2e.svc.baseUrl, e2e.dir, workspaceId, ['--scopes', 'customers:read,conversations:write']);
  t.strictSame((await custom.api.get('/me')).body.scopes, ['customers:read', 'conversations:write']);
  t.equal((await custom.api.post('/tags', { name: 'scoped' })).status, 201);
  expectError(t, await custom.api.get('/tags'), 403, 'insufficient_scope');
});

t.test('plans: none answers 402, starter 403 forbidden', async (t) => {
  const { api, workspaceId } = await tenant(e2e.svc.baseUrl, e2e.dir);
  await adminJson(e2e.dir, 'workspace', 'set', '--id', workspaceId, '--plan', 'none');
  await until(async () => (await api.get('/me')).status === 402, 10_000);
  expectError(t, await api.get('/customers'), 402, 'PLAN_LIMIT_REACHED');
  await adminJson(e2e.dir, 'workspace', 'set', '--id', workspaceId, '--plan', 'starter');
  await until(async () => (await api.get('/me')).status === 403, 10_000);
  expectError(t, await api.post('/tags', { name: 'x' }), 403, 'forbidden');
  await adminJson(e2e.dir, 'workspace', 'set', '--id', workspaceId, '--plan', 'enterprise');
  await until(async () => (await api.get('/me')).status === 200, 10_000);
  const starter = await tenant(e2e.svc.baseUrl, e2e.dir, { workspaceArgs: ['--plan', 'starter'] });
  expectError(t, await starter.api.get('/'), 403, 'forbidden');
});

t.test("one workspace never sees another one's data", async (t) => {
  const a = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'A' });
  const b = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'B' });
  const customer = (await a.api.post('/customers', { email: 'shared@example.com', name: 'Only A' })).body;
  const tag = (await a.api.post('/tags', { name: 'only-a' })).body;
  expectError(t, await b.api.get(`/customers/${customer.id}`), 404, 'not_found');
  expectError(t, await b.api.patch(`/customers/${customer.id}`, { name: 'stolen' }), 404, 'not_found');
  expectError(t, await b.api.patch(`/tags/${tag.id}`, { name: 'stolen' }), 404, 'not_found');
  expectError(t, await b.api.delete(`/tags/${tag.id}`), 404, 'not_found');
  t.strictSame((await b.api.get('/customers')).body.data, []);
  t.strictSame((await b.api.get('/tags')).body.data, []);
  // Dedup and tag names are per workspace: B gets its own customer and tag.
  const bCustomer = (await b.api.post('/customers', { email: 'shared@example.com' })).body;
  t.not(bCustomer.id, customer.id);
  t.equal((await b.api.post('/tags', { name: 'only-a' })).status, 201);
  t.equal((await a.api.get(`/customers/${customer.id}`)).body.name, 'Only A');
});

t.test('the admin CLI refuses keys for unknown workspaces', async (t) => {
  const r = await admin(e2e.dir, 'key', 'create', '--workspace', 'ws_01ARZ3NDEKTSV4RRFFQ69G5FAV', '--name', 'x', '--json');
  t.equal(r.code, 1);
  t.equal(r.stdout, '');
  t.match(r.stderr, /workspace .* not found/);
});
