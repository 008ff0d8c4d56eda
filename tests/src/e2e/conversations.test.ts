import t from 'tap';
import { expectError } from '../support/expect';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminJson, replayEvents, tempDir } from '../support/service';
import { until } from '../support/wait';
import { serviceFixture } from '../support/fixture';
import { tenant } from '../support/workspace';

const e2e = serviceFixture();

t.test('create: default channel api, every field, empty body allowed', async (t) => {
  const r = await e2e.ws.api.post('/conversations');
  t.equal(r.status, 201);
  t.match(r.body, {
    object: 'conversation',
    id: /^conv_[0-9A-Z]{26}$/,
    status: 'open',
    channel: 'api',
    channel_id: null,
    customer_id: null,
    customer_name: null,
    customer_email: null,
    assignee: null,
    priority: 'normal',
    tags: [],
    external_id: null,
    is_pinned: false,
    resolution_type: null,
    message_count: 0,
    custom_action_memory: null,
    resolved_at: null,
    created_at: String,
    updated_at: String,
    metadata: {},
  });
  t.strictSame((await e2e.ws.api.get(`/conversations/${r.body.id}`)).body, r.body);
  const wa = await e2e.ws.api.post('/conversations', { channel: 'whatsapp', metadata: { order: 'A-1' } });
  t.match(wa.body, { channel: 'whatsapp', metadata: { order: 'A-1' } });
  expectError(t, await e2e.ws.api.post('/conversations', { channel: 'email' }), 400);
});

t.test('a customer given is created or matched and fills the customer fields and counters', async (t) => {
  const c1 = (await e2e.ws.api.post('/conversations', { customer: { email: 'Conv@Example.com', name: 'Cora' } })).body;
  t.match(c1, { customer_id: /^cus_/, customer_name: 'Cora', customer_email: 'Conv@Example.com' });
  const customer = (await e2e.ws.api.get(`/customers/${c1.customer_id}`)).body;
  t.match(customer, { conversation_count: 1, first_contact_at: c1.created_at, last_contact_at: c1.created_at });
  const c2 = (await e2e.ws.api.post('/conversations', { channel: 'telegram', customer: { email: 'conv@example.com' } })).body;
  t.equal(c2.customer_id, c1.customer_id, 'matched across channels');
  t.equal(c2.customer_name, 'Cora');
  const after = (await e2e.ws.api.get(`/customers/${c1.customer_id}`)).body;
  t.match(after, { conversation_count: 2, first_contact_at: c1.created_at, last_contact_at: c2.created_at });
  expectError(t, await e2e.ws.api.post('/conversations', { customer: { name: 'No identity' } }), 400, 'validation_error');
});

t.test('PATCH: close (and legacy resolved), reopen, priority, tags, assignee', async (t) => {
  const c = (await e2e.ws.api.post('/conversations')).body;
  const closed = await e2e.ws.api.patch(`/conversations/${c.id}`, { status: 'resolved' });
  t.equal(closed.status, 200);
  t.equal(closed.body.status, 'closed', 'resolved is stored as closed');
  t.ok(Date.parse(closed.body.resolved_at), 'resolved_at set');
  const reopened = (await e2e.ws.api.patch(`/conversations/${c.id}`, { status: 'open' })).body;
  t.match(reopened, { status: 'open', resolved_at: null });
  const r = (await e2e.ws.api.patch(`/conversations/${c.id}`, { priority: 'urgent', tags: ['billing', 'billing', 'vip'], assignee: 'ai' })).body;
  t.match(r, { priority: 'urgent', tags: ['billing', 'vip'], assignee: 'ai' });
  t.equal((await e2e.ws.api.patch(`/conversations/${c.id}`, { assignee: 'user_42' })).body.assignee, 'user_42');
  t.equal((await e2e.ws.api.patch(`/conversations/${c.id}`, { assignee: null })).body.assignee, null, 'null unassigns');
  expectError(t, await e2e.ws.api.patch(`/conversations/${c.id}`, { status: 'pending' }), 400);
  expectError(t, await e2e.ws.api.patch(`/conversations/${c.id}`, { priority: 'p1' }), 400);
  const types = (await replayEvents(e2e.dir)).filter((e) => e.stream === `conversation-${c.id}`).map((e) => e.type);
  t.strictSame(types, [
    'conversation.created',
    'conversation.updated',
    'conversation.closed',
    'conversation.updated',
    'conversation.updated',
    'conversation.updated',
    'conversation.updated',
  ]);
});

t.test("ids: malformed is a 400, unknown is a 404, another workspace's is a 404", async (t) => {
  const bad = await e2e.ws.api.get('/conversations/not-an-id');
  expectError(t, bad, 400);
  t.match(bad.body.error.message, /conversation id/);
  expectError(t, await e2e.ws.api.patch('/conversations/123', { priority: 'low' }), 400);
  expectError(t, await e2e.ws.api.get('/conversations/x/messages'), 400);
  expectError(t, await e2e.ws.api.post('/conversations/x/messages', { content: 'hi' }), 400);
  const unknown = 'conv_01ARZ3NDEKTSV4RRFFQ69G5FAV';
  expectError(t, await e2e.ws.api.get(`/conversations/${unknown}`), 404, 'not_found');
  expectError(t, await e2e.ws.api.patch(`/conversations/${unknown}`, { priority: 'low' }), 404, 'not_found');
  expectError(t, await e2e.ws.api.get(`/conversations/${unknown}/messages`), 404, 'not_found');
  expectError(t, await e2e.ws.api.post(`/conversations/${unknown}/messages`, { content: 'hi' }), 404, 'not_found');
  const other = await tenant(e2e.svc.baseUrl, e2e.dir);
  const mine = (await e2e.ws.api.post('/conversations')).body;
  expectError(t, await other.api.get(`/conversations/${mine.id}`), 404, 'not_found');
  expectError(t, await other.api.post(`/conversations/${mine.id}/messages`, { content: 'x' }), 404, 'not_found');
  expectError(t, await other.api.patch(`/conversations/${mine.id}`, { status: 'closed' }), 404, 'not_found');
});

t.test('messages: agent messages, newest first, counted; client_message_id dedup', async (t) => {
  const c = (await e2e.ws.api.post('/conversations', { customer: { email: 'msg@example.com' } })).body;
  const m1 = await e2e.ws.api.post(`/conversations/${c.id}/messages`, {
    content: 'Hello there',
    attachments: [{ url: 'https://x.io/a.png' }],
    channel_metadata: { k: 1 },
  });
  t.equal(m1.status, 201);
  t.match(m1.body, {
    object: 'message',
    id: /^msg_/,
    conversation_id: c.id,
    ticket_id: null,
    sender_type: 'agent',
    sender_id: e2e.ws.keyId,
    content: 'Hello there',
    visibility: 'public',
    channel: 'api',
    external_id: null,
    attachments: [{ url: 'https://x.io/a.png' }],
    is_read: true,
    created_at: String,
  });
  const m2 = (await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: 'Second', client_message_id: 'client-1' })).body;
  const again = await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: 'Second (retry)', client_message_id: 'client-1' });
  t.equal(again.status, 201);
  t.strictSame(again.body, m2, 'the first message is returned, nothing created');
  const list = (await e2e.ws.api.get(`/conversations/${c.id}/messages`)).body;
  t.strictSame(
    list.data.map((m: { id: string }) => m.id),
    [m2.id, m1.body.id],
  );
  t.equal((await e2e.ws.api.get(`/conversations/${c.id}`)).body.message_count, 2);
  const page = (await e2e.ws.api.get(`/conversations/${c.id}/messages?limit=1`)).body;
  t.match(page, { has_more: true, next_cursor: m2.id });
  t.strictSame(
    (await e2e.ws.api.get(`/conversations/${c.id}/messages?limit=1&starting_after=${m2.id}`)).body.data.map((m: { id: string }) => m.id),
    [m1.body.id],
  );
  expectError(t, await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: '' }), 400);
  expectError(t, await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: 'x', client_message_id: 'x'.repeat(129) }), 400);
  expectError(t, await e2e.ws.api.post(`/conversations/${c.id}/messages`, {}), 400);
  const other = (await e2e.ws.api.post('/conversations')).body;
  t.not(
    (await e2e.ws.api.post(`/conversations/${other.id}/messages`, { content: 'x', client_message_id: 'client-1' })).body.id,
    m2.id,
    'dedup is per conversation',
  );
});

t.test("a client_message_id named like an object's own property is the caller's id like any other", async (t) => {
  const c = (await e2e.ws.api.post('/conversations')).body;
  for (const clientId of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
    // When a message is posted with it, then posted again
    const first = await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: `first ${clientId}`, client_message_id: clientId });
    const again = await e2e.ws.api.post(`/conversations/${c.id}/messages`, { content: `again ${clientId}`, client_message_id: clientId });
    // Then the first is created (never a 503 claiming a write that did not happen), and the retry returns it
    t.strictSame([first.status, again.status, again.body.id, again.body.content], [201, 201, first.body.id, `first ${clientId}`], clientId);
  }
  t.equal((await e2e.ws.api.get(`/conversations/${c.id}`)).body.message_count, 4);
});

t.test('list filters: status, channel, customer_id, priority, channel_id', async (t) => {
  const o = await tenant(e2e.svc.baseUrl, e2e.dir);
  const a = (await o.api.post('/conversations', { channel: 'widget', customer: { external_id: 'cust-a' } })).body;
  const b = (await o.api.post('/conversations', { channel: 'api' })).body;
  const c = (await o.api.post('/conversations', { channel: 'widget' })).body;
  await o.api.patch(`/conversations/${b.id}`, { status: 'closed', priority: 'high' });
  const ids = async (q: string) => (await o.api.get(`/conversations${q}`)).body.data.map((x: { id: string }) => x.id);
  t.strictSame(await ids(''), [c.id, b.id, a.id]);
  t.strictSame(await ids('?status=closed'), [b.id]);
  t.strictSame(await ids('?status=open'), [c.id, a.id]);
  t.strictSame(await ids('?channel=widget'), [c.id, a.id]);
  t.strictSame(await ids(`?customer_id=${a.customer_id}`), [a.id]);
  t.strictSame(await ids('?priority=high'), [b.id]);
  t.strictSame(await ids('?priority=high&status=open'), []);
  t.strictSame(await ids('?channel_id=ch_none'), []);
  expectError(t, await o.api.get('/conversations?status=resolved'), 400);
  expectError(t, await o.api.get('/conversations?channel=fax'), 400);
});

t.test('scopes: messages:write to post, conversations:write to create', async (t) => {
  const o = await tenant(e2e.svc.baseUrl, e2e.dir, { keyArgs: ['--scopes', 'conversations:read,conversations:write'] });
  const c = (await o.api.post('/conversations')).body;
  const r = await o.api.post(`/conversations/${c.id}/messages`, { content: 'x' });
  expectError(t, r, 403, 'insufficient_scope');
  t.strictSame(r.body.error.details.required, ['messages:write']);
});

t.test('a conversation on a kind of channel joins the workspace channel of that kind, whose count follows', async (t) => {
  const o = await tenant(e2e.svc.baseUrl, e2e.dir);
  const file = join(tempDir('import-'), 'channels.json');
  writeFileSync(
    file,
    JSON.stringify({
      channels: [
        { type: 'widget', name: 'Site widget', status: 'connected' },
        { type: 'whatsapp', name: 'WA' },
      ],
    }),
  );
  const report = await adminJson<{ channels: { ids: string[] } }>(e2e.dir, 'import', '--workspace', o.workspaceId, '--file', file);
  const [widget] = report.channels.ids;
  await until(async () => (await o.api.get('/channels')).body.data.length === 2, 10_000);
  const a = (await o.api.post('/conversations', { channel: 'widget' })).body;
  await o.api.post('/conversations', { channel: 'widget' });
  await o.api.post('/conversations', { channel: 'api' });
  t.equal(a.channel_id, widget);
  const channels = (await o.api.get('/channels')).body.data as { id: string; conversation_count: number }[];
  t.equal(channels.find((c) => c.id === widget)?.conversation_count, 2);
  t.equal(channels.find((c) => c.id !== widget)?.conversation_count, 0);
  t.strictSame((await o.api.get(`/conversations?channel_id=${widget}`)).body.data.length, 2);
});
