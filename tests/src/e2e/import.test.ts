import { join } from 'node:path';
import t from 'tap';
import { FILE, GIVEN, ids, importer, visible } from '../support/import-fixture';
import { admin } from '../support/service';
import { until } from '../support/wait';
import { Tenant, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

// The operator's `import` of read-only resources (spec 4.7): what it writes, what it refuses.

let other: Tenant;
const e2e = serviceFixture({ tenant: { name: 'Readonly' } });
const { importRaw, importJson, events } = importer(e2e.dir);
t.before(async () => {
  other = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Other' });
});

t.test('import: all four kinds; given ids, numbers and created_at kept, the rest generated', async (t) => {
  // The CLI's clock is this machine's: "the time of the import" lies between these two.
  const importStarted = new Date().toISOString();
  const report = await importJson(e2e.ws.workspaceId, FILE);
  const importEnded = new Date().toISOString();
  t.strictSame(Object.keys(report), ['tickets', 'knowledge_base_articles', 'canned_responses', 'channels'], 'per kind given, in file order');
  t.equal(report.tickets.count, 3);
  t.equal(report.tickets.ids[0], GIVEN.ticket);
  t.match(report.tickets.ids.slice(1), [/^tkt_[0-9A-Z]{26}$/, /^tkt_[0-9A-Z]{26}$/]);
  t.match(report.knowledge_base_articles, { count: 2, ids: [GIVEN.article, /^kb_[0-9A-Z]{26}$/] });
  t.match(report.canned_responses, { count: 2, ids: [/^cr_[0-9A-Z]{26}$/, GIVEN.canned] });
  t.match(report.channels, { count: 2, ids: [/^ch_[0-9A-Z]{26}$/, GIVEN.channel] });
  await visible(e2e.ws, `/channels`, (b) => b.data.length === 2);

  const given = await e2e.ws.api.get(`/tickets/${GIVEN.ticket}`);
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
  const [, second, third] = await Promise.all(report.tickets.ids.map((id) => e2e.ws.api.get(`/tickets/${id}`).then((r) => r.body)));
  t.match(
    second,
    { number: 501, status: 'open', priority: 'normal', type: 'question', tags: [], description: null, customer_id: 'cus_beta' },
    'defaults, next number',
  );
  t.match(third, { number: 502, status: 'on_hold', priority: 'urgent', type: 'task' });
  t.ok(importStarted <= second.created_at && second.created_at <= importEnded, `a missing created_at is the time of the import (${second.created_at})`);
  t.equal(second.created_at, second.updated_at, 'exactly the time of its event');

  t.match((await e2e.ws.api.get(`/knowledge_base/articles/${GIVEN.article}`)).body, {
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
  t.match((await e2e.ws.api.get(`/knowledge_base/articles/${report.knowledge_base_articles.ids[1]}`)).body, {
    status: 'draft',
    type: 'internal_article',
    is_public: false,
  });
  t.strictSame(Object.keys((await e2e.ws.api.get(`/canned_responses/${GIVEN.canned}`)).body).sort(), [
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
  t.match((await e2e.ws.api.get(`/canned_responses/${GIVEN.canned}`)).body, {
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
  const next = await importJson(e2e.ws.workspaceId, { tickets: [{ subject: 'Later one' }] });
  await visible(e2e.ws, `/tickets/${next.tickets.ids[0]}`);
  t.equal((await e2e.ws.api.get(`/tickets/${next.tickets.ids[0]}`)).body.number, 503);
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

t.test('re-import updates: changed fields visible; ticket.updated + ticket.resolved recorded; unchanged items record nothing', async (t) => {
  const before = (await events(e2e.ws.workspaceId)).length;
  const importStarted = new Date().toISOString();
  const again = await importJson(e2e.ws.workspaceId, {
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
  await visible(e2e.ws, `/channels`, (b) => b.data.some((c: { status: string }) => c.status === 'error'));
  const ticket = (await e2e.ws.api.get(`/tickets/${GIVEN.ticket}`)).body;
  t.match(
    ticket,
    { status: 'resolved', priority: 'low', summary: 'New client config', number: 500, customer_id: 'cus_alpha', created_at: '2025-06-01T08:00:00.000Z' },
    'fields not given are unchanged',
  );
  t.ok(importStarted <= ticket.resolved_at && ticket.resolved_at <= importEnded, `resolved_at is the time of the import (${ticket.resolved_at})`);
  t.equal(ticket.resolved_at, ticket.updated_at, 'the time of the events');
  t.ok(ticket.updated_at > ticket.created_at);
  t.strictSame(ids((await e2e.ws.api.get('/tickets?status=resolved')).body), [GIVEN.ticket], 'the filter follows the update');
  t.strictSame(ids((await e2e.ws.api.get('/tickets?status=pending')).body), []);
  t.equal((await e2e.ws.api.get(`/knowledge_base/articles/${GIVEN.article}`)).body.content, 'Use the new link.');
  t.match((await e2e.ws.api.get('/channels')).body.data[1], { id: GIVEN.channel, status: 'error', last_error_message: 'auth failed', conversation_count: 0 });

  const after = await events(e2e.ws.workspaceId);
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
  // The audit print names the channel's changed settings, never their values (tokens, passwords).
  t.strictSame(after.slice(before)[3].data, {
    id: GIVEN.channel,
    changes: { status: 'error', last_error_message: 'auth failed', config: { smtp_password: '[redacted]' } },
  });
  t.notOk(JSON.stringify(after).includes('rotated'), 'no setting value in the print');

  const resolvedAgain = await importJson(e2e.ws.workspaceId, {
    tickets: [{ id: GIVEN.ticket, subject: 'VPN drops every hour', status: 'resolved', description: 'Edited' }],
  });
  t.equal(resolvedAgain.tickets.count, 1);
  t.strictSame(
    (await events(e2e.ws.workspaceId)).slice(after.length).map((e) => e.type),
    ['ticket.updated'],
    'no second ticket.resolved when already resolved',
  );
});

t.test('an invalid file is refused as a whole: non-zero exit, the field named, nothing written', async (t) => {
  const before = (await events(e2e.ws.workspaceId)).length;
  const r = await importRaw(e2e.ws.workspaceId, {
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
    const bad = await importRaw(e2e.ws.workspaceId, content);
    t.not(bad.code, 0, `${JSON.stringify(content)} is refused`);
    t.match(bad.stderr, /^error: import refused/);
  }
  t.match(
    (await importRaw(e2e.ws.workspaceId, { tikets: [] })).stderr,
    /tikets is not a known field.*tickets, knowledge_base_articles, canned_responses, channels/,
  );
  const notJson = await importRaw(e2e.ws.workspaceId, '{"tickets": [');
  t.not(notJson.code, 0);
  t.match(notJson.stderr, /not valid JSON/);
  const missing = await admin(e2e.dir, 'import', '--workspace', e2e.ws.workspaceId, '--file', join(e2e.dir, 'no-such-file.json'), '--json');
  t.not(missing.code, 0);
  t.match(missing.stderr, /cannot read .*no-such-file\.json/);
  const unknownWs = await importRaw('ws_01J00000000000000000000000', { tickets: [{ subject: 'x' }] });
  t.not(unknownWs.code, 0);
  t.match(unknownWs.stderr, /workspace .* not found/);
  const usage = await admin(e2e.dir, 'import', '--workspace', e2e.ws.workspaceId);
  t.equal(usage.code, 2, 'a missing --file is a usage error');

  t.equal((await events(e2e.ws.workspaceId)).length, before, 'no event was appended');
  t.notOk((await e2e.ws.api.get('/tickets?limit=100')).text.includes('Should never appear'));
});

t.test("another workspace's ids cannot be imported over", async (t) => {
  const r = await importRaw(other.workspaceId, { tickets: [{ id: GIVEN.ticket, subject: 'Hijacked' }] });
  t.not(r.code, 0);
  t.match(r.stderr, /tickets\[0\]\.id tkt_\w+ belongs to another workspace/);
  t.equal((await e2e.ws.api.get(`/tickets/${GIVEN.ticket}`)).body.subject, 'VPN drops every hour');
});
