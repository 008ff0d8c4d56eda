import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { expectError } from '../support/expect';
import { admin, adminJson, removeDir, Service, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { keyFor, Tenant, tenant } from '../support/workspace';

// Read-only resources (spec 4.7): entered by the operator's `import`, served from read models.

let svc: Service;
let ws: Tenant;
let other: Tenant;
const dir = tempDir();
t.before(async () => {
  svc = await startService(dir);
  ws = await tenant(svc.baseUrl, dir, { name: 'Readonly' });
  other = await tenant(svc.baseUrl, dir, { name: 'Other' });
});
t.teardown(async () => {
  await svc.stop();
  removeDir(dir);
});

const SECRET = 'tok_live_very_secret_42';
const SMTP_SECRET = 'smtp-password-do-not-leak';
const GIVEN = {
  ticket: 'tkt_01J00000000000000000000001',
  article: 'kb_01J00000000000000000000001',
  canned: 'cr_01J00000000000000000000001',
  channel: 'ch_01J00000000000000000000001',
};

let files = 0;
const fileWith = (content: unknown): string => {
  const path = join(dir, `import-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const importRaw = (workspaceId: string, content: unknown) => admin(dir, 'import', '--workspace', workspaceId, '--file', fileWith(content), '--json');
type Report = Record<string, { count: number; ids: string[] }>;
const importJson = (workspaceId: string, content: unknown) => adminJson<Report>(dir, 'import', '--workspace', workspaceId, '--file', fileWith(content));

/** The CLI wrote events; the running service shows them once its projector has passed them. */
const visible = (tenant: Tenant, path: string, check: (body: any) => boolean = () => true) =>
  until(
    async () => {
      const r = await tenant.api.get(path);
      return r.status === 200 && check(r.body);
    },
    10_000,
    50,
  );

const events = async (workspaceId: string) => {
  const r = await admin(dir, 'events', 'replay', '--workspace', workspaceId);
  return r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; data: any });
};
const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);

const FILE = {
  tickets: [
    {
      id: GIVEN.ticket,
      number: 500,
      subject: 'VPN drops every hour',
      description: 'Since Monday',
      status: 'pending',
      priority: 'high',
      type: 'incident',
      tags: ['network', ' network', 'vpn'],
      customer_id: 'cus_alpha',
      assignee_id: 'agent_1',
      team_id: 'team_it',
      source_conversation_id: 'conv_x',
      sla_resolution_due_at: '2025-06-03T08:00:00+02:00',
      created_at: '2025-06-01T08:00:00Z',
    },
    { subject: 'Invoice copy', customer_id: 'cus_beta' },
    { subject: 'Migrate mailbox', status: 'on_hold', priority: 'urgent', type: 'task', assignee_id: 'agent_2' },
  ],
  knowledge_base_articles: [
    {
      id: GIVEN.article,
      title: 'Reset your password',
      content: 'Use the link on the sign-in page.',
      tags: ['accounts'],
      category: 'Accounts',
      created_at: '2024-01-01T00:00:00Z',
    },
    { title: 'Escalation playbook', content: 'Call the on-call.', status: 'draft', type: 'internal_article' },
  ],
  canned_responses: [
    { name: 'Greeting', content: 'Hello, how can I help?' },
    { id: GIVEN.canned, name: 'Goodbye', content: 'Have a nice day.', shortcut: '/bye', add_tags: ['closing'], usage_count: 12 },
  ],
  channels: [
    { type: 'widget', name: 'Website chat', config: { token: SECRET } },
    {
      id: GIVEN.channel,
      type: 'email',
      name: 'Support inbox',
      status: 'connected',
      last_connected_at: '2025-05-01T00:00:00Z',
      config: { smtp_password: SMTP_SECRET },
    },
  ],
};

let report: Report;
t.test('import: all four kinds; given ids, numbers and created_at kept, the rest generated', async (t) => {
  // The CLI's clock is this machine's: "the time of the import" lies between these two.
  const importStarted = new Date().toISOString();
  report = await importJson(ws.workspaceId, FILE);
  const importEnded = new Date().toISOString();
  t.strictSame(Object.keys(report), ['tickets', 'knowledge_base_articles', 'canned_responses', 'channels'], 'per kind given, in file order');
  t.equal(report.tickets.count, 3);
  t.equal(report.tickets.ids[0], GIVEN.ticket);
  t.match(report.tickets.ids.slice(1), [/^tkt_[0-9A-Z]{26}$/, /^tkt_[0-9A-Z]{26}$/]);
  t.match(report.knowledge_base_articles, { count: 2, ids: [GIVEN.article, /^kb_[0-9A-Z]{26}$/] });
  t.match(report.canned_responses, { count: 2, ids: [/^cr_[0-9A-Z]{26}$/, GIVEN.canned] });
  t.match(report.channels, { count: 2, ids: [/^ch_[0-9A-Z]{26}$/, GIVEN.channel] });
  await visible(ws, `/channels`, (b) => b.data.length === 2);

  const given = await ws.api.get(`/tickets/${GIVEN.ticket}`);
  t.equal(given.status, 200);
  t.strictSame(
    Object.keys(given.body).sort(),
    [
      'assignee_id',
      'category_id',
      'closed_at',
      'created_at',
      'customer_id',
      'description',
      'first_response_at',
      'id',
      'number',
      'object',
      'priority',
      'resolved_at',
      'sla_first_response_due_at',
      'sla_next_response_due_at',
      'sla_policy_id',
      'sla_resolution_due_at',
      'sla_status',
      'source_conversation_id',
      'status',
      'subject',
      'summary',
      'tags',
      'team_id',
      'type',
      'updated_at',
    ],
    'every field of spec 2.9',
  );
  t.match(given.body, {
    object: 'ticket',
    id: GIVEN.ticket,
    number: 500,
    subject: 'VPN drops every hour',
    description: 'Since Monday',
    status: 'pending',
    priority: 'high',
    type: 'incident',
    tags: ['network', 'vpn'],
    customer_id: 'cus_alpha',
    assignee_id: 'agent_1',
    team_id: 'team_it',
    category_id: null,
    source_conversation_id: 'conv_x',
    sla_status: null,
    sla_policy_id: null,
    first_response_at: null,
    sla_first_response_due_at: null,
    sla_next_response_due_at: null,
    sla_resolution_due_at: '2025-06-03T06:00:00.000Z',
    summary: null,
    resolved_at: null,
    closed_at: null,
    created_at: '2025-06-01T08:00:00.000Z',
  });
  const [, second, third] = await Promise.all(report.tickets.ids.map((id) => ws.api.get(`/tickets/${id}`).then((r) => r.body)));
  t.match(
    second,
    { number: 501, status: 'open', priority: 'normal', type: 'question', tags: [], description: null, customer_id: 'cus_beta' },
    'defaults, next number',
  );
  t.match(third, { number: 502, status: 'on_hold', priority: 'urgent', type: 'task' });
  t.ok(importStarted <= second.created_at && second.created_at <= importEnded, `a missing created_at is the time of the import (${second.created_at})`);
  t.equal(second.created_at, second.updated_at, 'exactly the time of its event');

  t.match((await ws.api.get(`/knowledge_base/articles/${GIVEN.article}`)).body, {
    object: 'knowledge_base_article',
    id: GIVEN.article,
    title: 'Reset your password',
    content: 'Use the link on the sign-in page.',
    description: null,
    tags: ['accounts'],
    category: 'Accounts',
    status: 'published',
    type: 'public_article',
    is_public: true,
    ai_agent_enabled: true,
    // Set by the agent's knowledge index once searchable (tests/src/e2e/agent.test.ts).
    indexed: Boolean,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: String,
  });
  t.match((await ws.api.get(`/knowledge_base/articles/${report.knowledge_base_articles.ids[1]}`)).body, {
    status: 'draft',
    type: 'internal_article',
    is_public: false,
  });
  t.strictSame(Object.keys((await ws.api.get(`/canned_responses/${GIVEN.canned}`)).body).sort(), [
    'add_tags',
    'content',
    'created_at',
    'id',
    'name',
    'object',
    'set_priority',
    'set_status',
    'shortcut',
    'updated_at',
    'usage_count',
    'visibility',
  ]);
  t.match((await ws.api.get(`/canned_responses/${GIVEN.canned}`)).body, {
    object: 'canned_response',
    id: GIVEN.canned,
    name: 'Goodbye',
    content: 'Have a nice day.',
    shortcut: '/bye',
    visibility: 'personal',
    set_status: null,
    set_priority: null,
    add_tags: ['closing'],
    usage_count: 12,
  });
});

t.test('ticket numbers continue per workspace; another workspace starts at 1', async (t) => {
  const next = await importJson(ws.workspaceId, { tickets: [{ subject: 'Later one' }] });
  await visible(ws, `/tickets/${next.tickets.ids[0]}`);
  t.equal((await ws.api.get(`/tickets/${next.tickets.ids[0]}`)).body.number, 503);
  const theirs = await importJson(other.workspaceId, { tickets: [{ subject: 'First elsewhere' }, { subject: 'Second elsewhere' }] });
  await visible(other, `/tickets/${theirs.tickets.ids[1]}`);
  t.strictSame(await Promise.all(theirs.tickets.ids.map(async (id) => (await other.api.get(`/tickets/${id}`)).body.number)), [1, 2]);
});

t.test('concurrent imports never hand out the same ticket number', async (t) => {
  const runs = await Promise.all(
    Array.from({ length: 4 }, (_, i) => importJson(other.workspaceId, { tickets: [{ subject: `Race ${i}a` }, { subject: `Race ${i}b` }] })),
  );
  const all = runs.flatMap((r) => r.tickets.ids);
  await until(async () => (await other.api.get('/tickets?limit=100')).body.data.length === 2 + all.length, 10_000, 50);
  const numbers = (await other.api.get('/tickets?limit=100')).body.data.map((d: { number: number }) => d.number).sort((a: number, b: number) => a - b);
  t.strictSame(
    numbers,
    Array.from({ length: 2 + all.length }, (_, i) => i + 1),
    'numbers 1..n, each once',
  );
});

t.test('GET /tickets: newest first, every filter, bad enum values are a 400', async (t) => {
  const [given, second, third] = report.tickets.ids;
  const list = await ws.api.get('/tickets');
  t.equal(list.status, 200);
  t.match(list.body, { object: 'list', has_more: false, next_cursor: null });
  t.strictSame(ids(list.body).slice(1), [third, second, given], 'newest first by id (the given id is the oldest ULID)');
  const q = async (query: string) => ids((await ws.api.get(`/tickets?${query}`)).body);
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
    const r = await ws.api.get(`/tickets?${bad}`);
    expectError(t, r, 400);
    t.match(r.body.error.message, new RegExp(bad.split('=')[0]), `${bad} names the parameter`);
  }
  t.match((await ws.api.get('/tickets?status=done')).body.error.message, /open, pending, on_hold, resolved, closed/, 'and the allowed values');
});

t.test('GET /knowledge_base/articles: filters by status and type', async (t) => {
  const [published, draft] = report.knowledge_base_articles.ids;
  const q = async (query: string) => ids((await ws.api.get(`/knowledge_base/articles${query}`)).body);
  t.strictSame(await q(''), [draft, published]);
  t.strictSame(await q('?status=published'), [published]);
  t.strictSame(await q('?status=draft'), [draft]);
  t.strictSame(await q('?type=internal_article'), [draft]);
  t.strictSame(await q('?type=public_article&status=published'), [published]);
  t.strictSame(await q('?type=public_article&status=draft'), []);
  expectError(t, await ws.api.get('/knowledge_base/articles?status=archived'), 400);
  expectError(t, await ws.api.get('/knowledge_base/articles?type=faq'), 400);
});

t.test('GET /canned_responses and /channels: newest first; channels unpaginated', async (t) => {
  const canned = await ws.api.get('/canned_responses');
  t.strictSame(ids(canned.body), [report.canned_responses.ids[0], GIVEN.canned]);
  expectError(t, await ws.api.get('/canned_responses?status=x'), 400);
  const channels = await ws.api.get('/channels');
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
  expectError(t, await ws.api.get('/channels?limit=5'), 400);
});

t.test('pagination walks every page once, newest first', async (t) => {
  const pager = await tenant(svc.baseUrl, dir, { name: 'Pager' });
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
    expectError(t, await ws.api.get(path), 404, 'not_found');
  }
  for (const path of [`/tickets/${GIVEN.ticket}`, `/knowledge_base/articles/${GIVEN.article}`, `/canned_responses/${GIVEN.canned}`]) {
    expectError(t, await other.api.get(path), 404, 'not_found');
  }
  t.notOk(ids((await other.api.get('/channels')).body).includes(GIVEN.channel), "another workspace's channels are not listed");
  t.notOk(ids((await other.api.get('/tickets?limit=100')).body).includes(GIVEN.ticket));
});

t.test('channel config never appears in a response', async (t) => {
  const replies = [
    await ws.api.get('/channels'),
    await ws.api.get('/tickets'),
    await ws.api.get('/knowledge_base/articles'),
    await ws.api.get('/canned_responses'),
    await ws.api.get('/openapi.json'),
  ];
  for (const r of replies) {
    t.notMatch(r.text, SECRET);
    t.notMatch(r.text, SMTP_SECRET);
  }
  t.notMatch(replies[0].text, /"config"/);
  const doc = (await ws.api.get('/openapi.json')).body;
  const channelSchema = doc.paths['/channels'].get.responses['200'].content['application/json'].schema.properties.data.items;
  t.ok(channelSchema.properties.conversation_count, 'the channel schema is documented');
  t.notOk('config' in channelSchema.properties, 'without config');
  // Kept in the event (an audit print may redact its values).
  t.ok(
    'config' in ((await events(ws.workspaceId)).find((e) => e.type === 'channel.created' && e.data.id === GIVEN.channel)?.data ?? {}),
    'it is kept in the event',
  );
});

t.test('re-import updates: changed fields visible; ticket.updated + ticket.resolved recorded; unchanged items record nothing', async (t) => {
  const before = (await events(ws.workspaceId)).length;
  const importStarted = new Date().toISOString();
  const again = await importJson(ws.workspaceId, {
    tickets: [{ id: GIVEN.ticket, subject: 'VPN drops every hour', status: 'resolved', priority: 'low', summary: 'New client config' }],
    knowledge_base_articles: [{ ...FILE.knowledge_base_articles[0], content: 'Use the new link.' }],
    channels: [
      { id: GIVEN.channel, type: 'email', name: 'Support inbox', status: 'error', last_error_message: 'auth failed', config: { smtp_password: 'rotated' } },
    ],
    canned_responses: [FILE.canned_responses[1]],
  });
  const importEnded = new Date().toISOString();
  t.strictSame(Object.keys(again), ['tickets', 'knowledge_base_articles', 'channels', 'canned_responses'], 'kinds in file order');
  t.strictSame(again.tickets, { count: 1, ids: [GIVEN.ticket] }, 'updated items are reported too');
  t.strictSame(again.canned_responses, { count: 1, ids: [GIVEN.canned] });
  await visible(ws, `/channels`, (b) => b.data.some((c: { status: string }) => c.status === 'error'));
  const ticket = (await ws.api.get(`/tickets/${GIVEN.ticket}`)).body;
  t.match(
    ticket,
    { status: 'resolved', priority: 'low', summary: 'New client config', number: 500, customer_id: 'cus_alpha', created_at: '2025-06-01T08:00:00.000Z' },
    'fields not given are unchanged',
  );
  t.ok(importStarted <= ticket.resolved_at && ticket.resolved_at <= importEnded, `resolved_at is the time of the import (${ticket.resolved_at})`);
  t.equal(ticket.resolved_at, ticket.updated_at, 'the time of the events');
  t.ok(ticket.updated_at > ticket.created_at);
  t.strictSame(ids((await ws.api.get('/tickets?status=resolved')).body), [GIVEN.ticket], 'the filter follows the update');
  t.strictSame(ids((await ws.api.get('/tickets?status=pending')).body), []);
  t.equal((await ws.api.get(`/knowledge_base/articles/${GIVEN.article}`)).body.content, 'Use the new link.');
  t.match((await ws.api.get('/channels')).body.data[1], { id: GIVEN.channel, status: 'error', last_error_message: 'auth failed', conversation_count: 0 });

  const after = await events(ws.workspaceId);
  const added = after.slice(before).map((e) => e.type);
  t.strictSame(
    added,
    ['ticket.updated', 'ticket.resolved', 'knowledge_base_article.updated', 'channel.updated'],
    'the unchanged canned response records nothing',
  );
  t.match(after.slice(before)[0].data, {
    id: GIVEN.ticket,
    changes: { status: 'resolved', priority: 'low', summary: 'New client config', resolved_at: ticket.resolved_at },
  });
  t.strictSame(after.slice(before)[1].data, { id: GIVEN.ticket, resolved_at: ticket.resolved_at });

  const resolvedAgain = await importJson(ws.workspaceId, {
    tickets: [{ id: GIVEN.ticket, subject: 'VPN drops every hour', status: 'resolved', description: 'Edited' }],
  });
  t.equal(resolvedAgain.tickets.count, 1);
  t.strictSame(
    (await events(ws.workspaceId)).slice(after.length).map((e) => e.type),
    ['ticket.updated'],
    'no second ticket.resolved when already resolved',
  );
});

t.test('an invalid file is refused as a whole: non-zero exit, the field named, nothing written', async (t) => {
  const before = (await events(ws.workspaceId)).length;
  const r = await importRaw(ws.workspaceId, {
    tickets: [{ subject: 'Should never appear' }, { subject: 'Bad', status: 'done' }],
    channels: [
      { type: 'sms', name: 'Text' },
      { type: 'api', name: 'Ok', color: 'red' },
    ],
  });
  t.not(r.code, 0);
  t.equal(r.stdout, '');
  t.match(r.stderr, /tickets\[1\]\.status must be one of open, pending, on_hold, resolved, closed/);
  t.match(r.stderr, /channels\[0\]\.type must be one of widget, whatsapp, facebook, instagram, telegram, email, api/);
  t.match(r.stderr, /channels\[1\]\.color is not a known field/);
  t.match(r.stderr, /nothing was imported/);
  for (const content of [
    { tickets: [{ id: 'tkt_123', subject: 'x' }] },
    { tickets: [{ subject: 'x', created_at: 'last tuesday' }] },
    {
      tickets: [
        { subject: 'a', number: 9000 },
        { subject: 'b', number: 9000 },
      ],
    },
    {
      canned_responses: [
        { id: GIVEN.canned, name: 'a', content: 'a' },
        { id: GIVEN.canned, name: 'b', content: 'b' },
      ],
    },
    { knowledge_base_articles: [{ title: 'x', content: 'y', status: 'archived' }] },
    { tikets: [] },
    [],
  ]) {
    const bad = await importRaw(ws.workspaceId, content);
    t.not(bad.code, 0, `${JSON.stringify(content)} is refused`);
    t.match(bad.stderr, /^error: import refused/);
  }
  t.match(
    (await importRaw(ws.workspaceId, { tikets: [] })).stderr,
    /tikets is not a known field.*tickets, knowledge_base_articles, canned_responses, channels/,
  );
  const notJson = await importRaw(ws.workspaceId, '{"tickets": [');
  t.not(notJson.code, 0);
  t.match(notJson.stderr, /not valid JSON/);
  const missing = await admin(dir, 'import', '--workspace', ws.workspaceId, '--file', join(dir, 'no-such-file.json'), '--json');
  t.not(missing.code, 0);
  t.match(missing.stderr, /cannot read .*no-such-file\.json/);
  const unknownWs = await importRaw('ws_01J00000000000000000000000', { tickets: [{ subject: 'x' }] });
  t.not(unknownWs.code, 0);
  t.match(unknownWs.stderr, /workspace .* not found/);
  const usage = await admin(dir, 'import', '--workspace', ws.workspaceId);
  t.equal(usage.code, 2, 'a missing --file is a usage error');

  t.equal((await events(ws.workspaceId)).length, before, 'no event was appended');
  t.notOk((await ws.api.get('/tickets?limit=100')).text.includes('Should never appear'));
});

t.test("another workspace's ids cannot be imported over", async (t) => {
  const r = await importRaw(other.workspaceId, { tickets: [{ id: GIVEN.ticket, subject: 'Hijacked' }] });
  t.not(r.code, 0);
  t.match(r.stderr, /tickets\[0\]\.id tkt_\w+ belongs to another workspace/);
  t.equal((await ws.api.get(`/tickets/${GIVEN.ticket}`)).body.subject, 'VPN drops every hour');
});

t.test('scopes: each resource needs its own; chat_only keys are refused', async (t) => {
  const chat = await keyFor(svc.baseUrl, dir, ws.workspaceId, ['--access', 'chat_only']);
  const r = await chat.api.get('/tickets');
  expectError(t, r, 403, 'insufficient_scope');
  t.strictSame(r.body.error.details, { required: ['tickets:read'] });
  expectError(t, await chat.api.get(`/tickets/${GIVEN.ticket}`), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/knowledge_base/articles'), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/canned_responses'), 403, 'insufficient_scope');
  expectError(t, await chat.api.get('/channels'), 403, 'insufficient_scope');
  const ticketsOnly = await keyFor(svc.baseUrl, dir, ws.workspaceId, ['--scopes', 'tickets:read']);
  t.equal((await ticketsOnly.api.get('/tickets')).status, 200);
  t.strictSame((await ticketsOnly.api.get('/canned_responses')).body.error.details, { required: ['conversations:read'] });
  t.strictSame((await ticketsOnly.api.get('/channels')).body.error.details, { required: ['channels:read'] });
  t.strictSame((await ticketsOnly.api.get('/knowledge_base/articles')).body.error.details, { required: ['knowledge_base:read'] });
  const readOnly = await keyFor(svc.baseUrl, dir, ws.workspaceId, ['--access', 'read_only']);
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
    const r = await ws.api.call(method, path, method === 'DELETE' ? undefined : { subject: 'x' });
    expectError(t, r, 405, 'method_not_allowed');
  }
});
