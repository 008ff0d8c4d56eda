import t from 'tap';
import { resolved } from '../support/openapi';
import { expectError } from '../support/expect';
import { FILE, GIVEN, ids, importer, Report, SECRET, SMTP_SECRET, visible } from '../support/import-fixture';
import { keyFor, Tenant, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

// Read-only resources (spec 4.7): entered by the operator's `import` (e2e/import.test.ts), served from read models.

let other: Tenant;
let report: Report;
const e2e = serviceFixture({ tenant: { name: 'Readonly' } });
const { importJson, events } = importer(e2e.dir);
t.before(async () => {
  other = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Other' });
  report = await importJson(e2e.ws.workspaceId, FILE);
  await visible(e2e.ws, `/channels`, (b) => b.data.length === 2);
});

t.test('GET /tickets: newest first, every filter, bad enum values are a 400', async (t) => {
  const [given, second, third] = report.tickets.ids;
  const list = await e2e.ws.api.get('/tickets');
  t.equal(list.status, 200);
  t.match(list.body, { object: 'list', has_more: false, next_cursor: null });
  t.strictSame(ids(list.body), [third, second, given], 'newest first by id (the given id is the oldest ULID)');
  const q = async (query: string) => ids((await e2e.ws.api.get(`/tickets?${query}`)).body);
  t.strictSame(await q('status=pending'), [given]);
  t.strictSame(await q('status=on_hold'), [third]);
  t.strictSame(await q('status=closed'), []);
  t.strictSame(await q('priority=urgent'), [third]);
  t.strictSame(await q('priority=high'), [given]);
  t.strictSame(await q('type=incident'), [given]);
  t.strictSame(await q('type=task'), [third]);
  t.strictSame(await q('customer_id=cus_beta'), [second]);
  t.strictSame(await q('assignee_id=agent_1'), [given]);
  t.strictSame(await q('assignee_id=agent_2&priority=urgent&type=task&status=on_hold'), [third], 'filters combine');
  t.strictSame(await q('assignee_id=agent_2&priority=low'), []);
  for (const bad of ['status=done', 'priority=p1', 'type=bug', 'limit=0', 'limit=101', 'colour=red']) {
    const r = await e2e.ws.api.get(`/tickets?${bad}`);
    expectError(t, r, 400);
    t.match(r.body.error.message, new RegExp(bad.split('=')[0]), `${bad} names the parameter`);
  }
  t.match((await e2e.ws.api.get('/tickets?status=done')).body.error.message, /open, pending, on_hold, resolved, closed/, 'and the allowed values');
});

t.test('GET /knowledge_base/articles: filters by status and type', async (t) => {
  const [published, draft] = report.knowledge_base_articles.ids;
  const q = async (query: string) => ids((await e2e.ws.api.get(`/knowledge_base/articles${query}`)).body);
  t.strictSame(await q(''), [draft, published]);
  t.strictSame(await q('?status=published'), [published]);
  t.strictSame(await q('?status=draft'), [draft]);
  t.strictSame(await q('?type=internal_article'), [draft]);
  t.strictSame(await q('?type=public_article&status=published'), [published]);
  t.strictSame(await q('?type=public_article&status=draft'), []);
  expectError(t, await e2e.ws.api.get('/knowledge_base/articles?status=archived'), 400);
  expectError(t, await e2e.ws.api.get('/knowledge_base/articles?type=faq'), 400);
});

t.test('GET /canned_responses and /channels: newest first; channels unpaginated', async (t) => {
  const canned = await e2e.ws.api.get('/canned_responses');
  t.strictSame(ids(canned.body), [report.canned_responses.ids[0], GIVEN.canned]);
  expectError(t, await e2e.ws.api.get('/canned_responses?status=x'), 400);
  const channels = await e2e.ws.api.get('/channels');
  t.equal(channels.status, 200);
  t.match(channels.body, { object: 'list', has_more: false, next_cursor: null });
  t.strictSame(ids(channels.body), [report.channels.ids[0], GIVEN.channel]);
  t.strictSame(Object.keys(channels.body.data[1]).sort(), [
    'conversation_count',
    'created_at',
    'id',
    'is_active',
    'last_connected_at',
    'last_error_message',
    'name',
    'object',
    'status',
    'type',
    'updated_at',
  ]);
  t.match(channels.body.data[1], {
    object: 'channel',
    type: 'email',
    name: 'Support inbox',
    is_active: true,
    status: 'connected',
    last_connected_at: '2025-05-01T00:00:00.000Z',
    last_error_message: null,
    conversation_count: 0,
  });
  t.match(channels.body.data[0], { type: 'widget', status: 'pending', last_connected_at: null });
  expectError(t, await e2e.ws.api.get('/channels?limit=5'), 400);
});

t.test('pagination walks every page once, newest first', async (t) => {
  const pager = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Pager' });
  const imported = await importJson(pager.workspaceId, { canned_responses: Array.from({ length: 23 }, (_, i) => ({ name: `R${i}`, content: `Text ${i}` })) });
  await visible(pager, `/canned_responses/${imported.canned_responses.ids[22]}`);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r: { body: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } } = await pager.api.get(
      `/canned_responses?limit=10${cursor ? `&starting_after=${cursor}` : ''}`,
    );
    pages += 1;
    seen.push(...ids(r.body));
    t.equal(r.body.next_cursor, r.body.has_more ? r.body.data[r.body.data.length - 1].id : null);
    cursor = r.body.next_cursor;
  } while (cursor);
  t.equal(pages, 3);
  t.strictSame(seen, [...imported.canned_responses.ids].reverse());
});

t.test("unknown ids and other workspaces' ids are 404 not_found", async (t) => {
  for (const path of [
    '/tickets/tkt_01J0000000000000000000000Z',
    '/tickets/nope',
    '/knowledge_base/articles/kb_01J0000000000000000000000Z',
    '/canned_responses/cr_nope',
  ]) {
    expectError(t, await e2e.ws.api.get(path), 404, 'not_found');
  }
  for (const path of [`/tickets/${GIVEN.ticket}`, `/knowledge_base/articles/${GIVEN.article}`, `/canned_responses/${GIVEN.canned}`]) {
    expectError(t, await other.api.get(path), 404, 'not_found');
  }
  t.notOk(ids((await other.api.get('/channels')).body).includes(GIVEN.channel), "another workspace's channels are not listed");
  t.notOk(ids((await other.api.get('/tickets?limit=100')).body).includes(GIVEN.ticket));
});

t.test('channel config never appears in a response', async (t) => {
  const replies = [
    await e2e.ws.api.get('/channels'),
    await e2e.ws.api.get('/tickets'),
    await e2e.ws.api.get('/knowledge_base/articles'),
    await e2e.ws.api.get('/canned_responses'),
    await e2e.ws.api.get('/openapi.json'),
  ];
  for (const r of replies) {
    t.notMatch(r.text, SECRET);
    t.notMatch(r.text, SMTP_SECRET);
  }
  t.notMatch(replies[0].text, /"config"/);
  const doc = (await e2e.ws.api.get('/openapi.json')).body;
  const channelSchema = resolved(doc, doc.paths['/channels'].get.responses['200'].content['application/json'].schema).properties.data.items;
  t.ok(channelSchema.properties.conversation_count, 'the channel schema is documented');
  t.notOk('config' in channelSchema.properties, 'without config');
  // Kept in the event (an audit print may redact its values).
  t.ok(
    'config' in ((await events(e2e.ws.workspaceId)).find((e) => e.type === 'channel.created' && e.data.id === GIVEN.channel)?.data ?? {}),
    'it is kept in the event',
  );
});

t.test('scopes: each resource needs its own; chat_only keys are refused', async (t) => {
  const chat = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'chat_only']);
  const r = await chat.api.get('/tickets');
  expectError(t, r, 403, 'insufficient_scope');
  t.strictSame(r.body.error.details, { required: ['tickets:read'] });
  expectError(t, await chat.api.get(`/tickets/${GIVEN.ticket}`), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/knowledge_base/articles'), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/canned_responses'), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/channels'), 403, 'insufficient_scope');
  const ticketsOnly = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--scopes', 'tickets:read']);
  t.equal((await ticketsOnly.api.get('/tickets')).status, 200);
  t.strictSame((await ticketsOnly.api.get('/canned_responses')).body.error.details, { required: ['conversations:read'] });
  t.strictSame((await ticketsOnly.api.get('/channels')).body.error.details, { required: ['channels:read'] });
  t.strictSame((await ticketsOnly.api.get('/knowledge_base/articles')).body.error.details, { required: ['knowledge_base:read'] });
  const readOnly = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'read_only']);
  for (const path of ['/tickets', '/knowledge_base/articles', '/canned_responses', '/channels'])
    t.equal((await readOnly.api.get(path)).status, 200, `read_only reads ${path}`);
});

t.test('no write routes: other methods answer 405 with the envelope', async (t) => {
  const cases: [string, string][] = [
    ['POST', '/tickets'],
    ['PATCH', `/tickets/${GIVEN.ticket}`],
    ['DELETE', `/tickets/${GIVEN.ticket}`],
    ['POST', '/knowledge_base/articles'],
    ['POST', '/canned_responses'],
    ['POST', '/channels'],
  ];
  for (const [method, path] of cases) {
    const r = await e2e.ws.api.call(method, path, method === 'DELETE' ? undefined : { subject: 'x' });
    expectError(t, r, 405, 'method_not_allowed');
  }
});
