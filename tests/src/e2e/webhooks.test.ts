import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { verifyWebhook } from '@support/webhooks';
import { expectError } from '../support/expect';
import { Receiver, settledDeliveries, webhookEnv } from '../support/receiver';
import { conformsTo } from '../support/openapi';
import { admin } from '../support/service';
import { until } from '../support/wait';
import { Tenant, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

let receiver: Receiver;
// The receiver starts first: the service is told where it is.
const e2e = serviceFixture({
  tenant: false,
  env: async () => {
    receiver = await Receiver.start();
    return webhookEnv(receiver);
  },
});
t.teardown(() => receiver.close());

const endpoint = async (ws: Tenant, path: string, enabled_events: string[] = ['*']) => {
  const r = await ws.api.post('/webhook_endpoints', { url: receiver.url(path), enabled_events, description: `to ${path}` });
  if (r.status !== 201) throw new Error(`endpoint not created: ${r.text}`);
  return r.body as { id: string; secret: string };
};

t.test('endpoint CRUD: secret only on create and roll, validation, delete', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const created = await ws.api.post('/webhook_endpoints', { url: receiver.url('/crud'), enabled_events: ['conversation.created', 'message.created'] });
  t.equal(created.status, 201);
  t.match(created.body, {
    object: 'webhook_endpoint',
    id: /^we_/,
    url: receiver.url('/crud'),
    description: null,
    enabled_events: ['conversation.created', 'message.created'],
    status: 'enabled',
    consecutive_failures: 0,
    last_error_at: null,
    disabled_at: null,
    secret: /^whsec_/,
    created_at: String,
    updated_at: String,
  });
  const id = created.body.id;
  const got = await ws.api.get(`/webhook_endpoints/${id}`);
  t.notOk('secret' in got.body, 'no secret on GET');
  t.notOk('secret' in (await ws.api.get('/webhook_endpoints')).body.data[0], 'no secret in the list');
  const patched = await ws.api.patch(`/webhook_endpoints/${id}`, { description: 'Orders', enabled_events: ['*'] });
  t.match(patched.body, { description: 'Orders', enabled_events: ['*'] });
  t.notOk('secret' in patched.body);
  const rolled = await ws.api.post(`/webhook_endpoints/${id}/roll_secret`);
  t.equal(rolled.status, 200);
  t.match(rolled.body.secret, /^whsec_/);
  t.not(rolled.body.secret, created.body.secret);
  t.match((await ws.api.patch(`/webhook_endpoints/${id}`, { status: 'disabled' })).body, { status: 'disabled', disabled_at: String });
  t.match((await ws.api.patch(`/webhook_endpoints/${id}`, { status: 'enabled' })).body, { status: 'enabled', disabled_at: null });
  for (const bad of [
    { url: 'http://example.com/hook', enabled_events: ['*'] },
    { url: receiver.url(), enabled_events: ['conversation.deleted'] },
    { url: receiver.url(), enabled_events: ['*', 'message.created'] },
    { url: receiver.url(), enabled_events: [] },
    { url: 'not a url', enabled_events: ['*'] },
  ])
    expectError(t, await ws.api.post('/webhook_endpoints', bad), 400);
  expectError(t, await ws.api.post('/webhook_endpoints', { url: receiver.url() }), 400);
  // A receiver that takes a token in its URL: the audit print shows the query's names, not its values
  const tokened = await ws.api.post('/webhook_endpoints', { url: receiver.url('/hook?token=tok_abc123secret&v=2#frag_secret'), enabled_events: ['*'] });
  t.equal(tokened.status, 201);
  t.equal((await ws.api.delete(`/webhook_endpoints/${tokened.body.id}`)).status, 200);
  const replay = await admin(e2e.dir, 'events', 'replay', '--workspace', ws.workspaceId);
  t.match(replay.stdout, /webhook_endpoint\.secret_rolled/);
  t.strictSame(
    [
      replay.stdout.includes('tok_abc123secret'),
      replay.stdout.includes('frag_secret'),
      replay.stdout.includes('/hook?token=[redacted]&v=[redacted]#[redacted]'),
    ],
    [false, false, true],
    'a token in a URL is redacted, its name kept, and its fragment',
  );
  t.notOk(replay.stdout.includes(rolled.body.secret) || replay.stdout.includes(created.body.secret), 'the audit print redacts secrets');
  t.strictSame((await ws.api.delete(`/webhook_endpoints/${id}`)).body, { object: 'webhook_endpoint', id, deleted: true });
  expectError(t, await ws.api.get(`/webhook_endpoints/${id}`), 404, 'not_found');
  // Spec 7: an id that is not a webhook endpoint id is not found, on every id-taking route.
  for (const [method, path] of [
    ['GET', '/webhook_endpoints/bogus'],
    ['PATCH', '/webhook_endpoints/bogus'],
    ['DELETE', '/webhook_endpoints/bogus'],
    ['POST', '/webhook_endpoints/bogus/roll_secret'],
    ['POST', '/webhook_endpoints/bogus/test'],
    ['GET', '/webhook_endpoints/bogus/deliveries'],
    ['POST', `/webhook_endpoints/${id}/deliveries/bogus/retry`],
  ] as const) {
    expectError(t, await ws.api.call(method, path, method === 'PATCH' ? { description: 'x' } : undefined), 404, 'not_found', `${method} ${path}`);
  }
  const other = await tenant(e2e.svc.baseUrl, e2e.dir);
  const mine = await endpoint(ws, '/crud2');
  expectError(t, await other.api.get(`/webhook_endpoints/${mine.id}`), 404, 'not_found');
  expectError(t, await other.api.post(`/webhook_endpoints/${mine.id}/roll_secret`), 404, 'not_found');
});

t.test('the document states the url and enabled_events rules the service enforces, both ways', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const doc = (await ws.api.get('/openapi.json')).body;
  const create = doc.paths['/webhook_endpoints'].post.requestBody.content['application/json'].schema;
  t.strictSame(
    doc.paths['/webhook_endpoints/{id}'].patch.requestBody.content['application/json'].schema.properties.enabled_events,
    create.properties.enabled_events,
    'the same on PATCH',
  );
  t.match(create.properties.url, {
    type: 'string',
    format: 'uri',
    pattern: '^https:\\/\\/[^\\u0000-\\u001f\\u007f/?#][^\\u0000-\\u001f\\u007f]*$',
    maxLength: 2048,
  });
  const events = create.properties.enabled_events;
  // Two whole variants (a generated client types each): known types, or "*" alone.
  t.match(events, {
    anyOf: [
      { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: Array } },
      { type: 'array', minItems: 1, maxItems: 1, items: { type: 'string', const: '*' } },
    ],
  });
  t.strictSame(events.anyOf[0].items.enum, [
    'conversation.created',
    'conversation.updated',
    'conversation.closed',
    'message.created',
    'customer.created',
    'customer.updated',
    'lead.captured',
    'ticket.created',
    'ticket.updated',
    'ticket.resolved',
    'sla.at_risk',
    'sla.breached',
    'agent.escalated',
  ]);
  // What the schema refuses, the service refuses; what it allows, the service takes.
  const post = (body: object) => ws.api.post('/webhook_endpoints', { url: receiver.url('/rules'), ...body });
  const empty = await post({ enabled_events: [] });
  expectError(t, empty, 400, 'validation_error');
  t.strictSame(empty.body.error.message, 'enabled_events must name at least one event type, or be ["*"]');
  expectError(t, await post({ enabled_events: ['*', '*'] }), 400, 'validation_error');
  expectError(t, await post({ enabled_events: ['ping'] }), 400, 'validation_error');
  const http = await post({ url: receiver.url('/rules').replace(/^https:/, 'http:'), enabled_events: ['*'] });
  expectError(t, http, 400);
  t.strictSame(http.body.error.details.fields, [{ field: 'url', code: 'invalid_format', message: 'must be an https:// URL (no control characters)' }]);
  // The scheme without a host is refused as the document says, not as a URL refused later (Schemathesis)
  const bare = await post({ url: 'https://', enabled_events: ['*'] });
  t.strictSame(bare.body.error.details.fields, [{ field: 'url', code: 'invalid_format', message: 'must be an https:// URL (no control characters)' }]);
  const ok = await post({ enabled_events: ['ticket.created', 'ticket.created', 'sla.breached'] });
  t.equal(ok.status, 201);
  t.strictSame(ok.body.enabled_events, ['ticket.created', 'sla.breached'], 'repeats are dropped');
  t.equal((await post({ enabled_events: ['*'] })).status, 201);
});

t.test('at most 16 endpoints per workspace: the 17th is a 409 conflict until one is deleted', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const ids: string[] = [];
  for (let i = 0; i < 16; i++) ids.push((await endpoint(ws, `/many/${i}`)).id);
  const refused = await ws.api.post('/webhook_endpoints', { url: receiver.url('/many/16'), enabled_events: ['*'] });
  expectError(t, refused, 409, 'conflict');
  t.strictSame(refused.body.error.message, 'a workspace has at most 16 webhook endpoints; delete one first');
  t.equal((await ws.api.get('/webhook_endpoints')).body.data.length, 16, 'nothing was registered');
  t.equal((await ws.api.delete(`/webhook_endpoints/${ids[0]}`)).status, 200);
  t.equal((await ws.api.post('/webhook_endpoints', { url: receiver.url('/many/16'), enabled_events: ['*'] })).status, 201, 'a deletion frees a place');
});

t.test('a delivery: envelope, every header, signature over the exact bytes', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const ep = await endpoint(ws, '/signed', ['conversation.created']);
  const conversation = (await ws.api.post('/conversations', { metadata: { ref: 'x' } })).body;
  const [hit] = await receiver.waitFor('/signed', 1);
  t.match(hit.headers, {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks/1.0',
    'service-event-type': 'conversation.created',
    'service-event-id': /^evt_/,
    'service-webhook-id': /^whd_/,
    'service-signature': /^t=\d+,v1=[0-9a-f]{64}$/,
  });
  t.match(hit.body, {
    id: hit.headers['service-event-id'],
    type: 'conversation.created',
    created_at: String,
    data: { object: 'conversation', id: conversation.id },
  });
  t.strictSame(hit.body.data, conversation, 'data is the conversation resource');
  // What the OpenAPI document's `webhooks` says a receiver gets is what it gets.
  const doc = (await ws.api.get('/openapi.json')).body;
  const described = (type: string) => conformsTo(doc, doc.webhooks[type].post.requestBody.content['application/json'].schema);
  t.strictSame(described('conversation.created')(hit.body), [], 'the body conforms to webhooks["conversation.created"]');
  t.not(described('message.created')(hit.body).length, 0, 'and not to another event type');
  t.ok(verifyWebhook(hit.raw, hit.headers['service-signature'] as string, ep.secret), 'signature verifies over the raw bytes');
  t.notOk(verifyWebhook(Buffer.from(JSON.stringify(hit.body, null, 1)), hit.headers['service-signature'] as string, ep.secret), 're-serialized bytes fail');
  t.notOk(verifyWebhook(hit.raw, hit.headers['service-signature'] as string, 'whsec_wrong'), 'another secret fails');
  const deliveries = (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body;
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data[0]?.status === 'succeeded', 10_000);
  const [delivery] = (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data;
  t.equal(deliveries.object, 'list');
  t.match(delivery, {
    object: 'webhook_delivery',
    id: hit.headers['service-webhook-id'],
    event_id: hit.body.id,
    event_type: 'conversation.created',
    status: 'succeeded',
    attempt_count: 1,
    response_status: 200,
    response_body: 'ok',
    next_retry_at: null,
    last_attempt_at: String,
  });
  const events = (await ws.api.get('/events')).body.data;
  t.match(events[0], { object: 'event', id: hit.body.id, type: 'conversation.created', data: { id: conversation.id } });
});

t.test('subscriptions filter by type; message.created data is the message resource; the events log keeps only subscribed types', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const messagesOnly = await endpoint(ws, '/only-messages', ['message.created']);
  await ws.api.post('/customers', { email: 'nobody-listens@example.com' });
  const c = (await ws.api.post('/conversations')).body;
  const m = (await ws.api.post(`/conversations/${c.id}/messages`, { content: 'Hi!', client_message_id: 'm-1' })).body;
  // Intake follows the log: once the message's delivery exists, the earlier events have been
  // through it; once none is pending, what the receiver got is final.
  const deliveries = await settledDeliveries(ws.api, messagesOnly.id, (ds) => ds.some((d) => d.event_type === 'message.created'));
  t.strictSame(
    deliveries.map((d) => [d.event_type, d.status]),
    [['message.created', 'succeeded']],
    'conversation.created was not queued for it',
  );
  const received = receiver.on('/only-messages');
  t.strictSame(
    received.map((h) => h.body.type),
    ['message.created'],
    'nor sent',
  );
  t.strictSame(received[0].body.data, m, 'data is shaped exactly like the message resource');
  const doc = (await ws.api.get('/openapi.json')).body;
  t.strictSame(conformsTo(doc, doc.webhooks['message.created'].post.requestBody.content['application/json'].schema)(received[0].body), []);
  const types = (await ws.api.get('/events')).body.data.map((e: { type: string }) => e.type);
  t.strictSame(types, ['message.created'], 'customer.created and conversation.created had no subscriber and were not stored');
  const all = await endpoint(ws, '/everything');
  await ws.api.patch(`/conversations/${c.id}`, { status: 'closed' });
  const hits = await receiver.waitFor('/everything', 2);
  t.strictSame(hits.map((h) => h.body.type).sort(), ['conversation.closed', 'conversation.updated']);
  t.equal(hits.find((h) => h.body.type === 'conversation.closed')!.body.data.status, 'closed');
  t.ok(all.id);
});

t.test('retries with backoff until a 2xx; every attempt recorded; Retry-After honoured', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  let calls = 0;
  // The third attempt is held open until the second's booking has been read.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  receiver.reply = (r) => {
    if (r.path !== '/flaky') return { status: 200 };
    calls += 1;
    return calls === 1
      ? { status: 500, body: 'boom' }
      : calls === 2
        ? { status: 429, headers: { 'Retry-After': '1' }, body: 'slow down' }
        : { status: 204, hold: held };
  };
  t.teardown(() => {
    release();
    receiver.reply = () => ({ status: 200, body: 'ok' });
  });
  const ep = await endpoint(ws, '/flaky', ['customer.created']);
  await ws.api.post('/customers', { email: 'retry@example.com' });
  const hits = await receiver.waitFor('/flaky', 3);
  t.equal(new Set(hits.map((h) => h.headers['service-webhook-id'])).size, 1, 'one delivery, three attempts');
  t.equal(new Set(hits.map((h) => h.raw.toString())).size, 1, 'the same bytes every attempt');
  // Retry-After (1 s) is honoured up to the backoff ceiling, 400 ms here; the attempt's own
  // backoff would have been 200 ms plus at most 10 % jitter. Both times are the service's.
  const [second] = (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data;
  t.match(second, { attempt_count: 2, response_status: 429, status: 'pending' });
  t.equal(
    Date.parse(second.next_retry_at) - Date.parse(second.last_attempt_at),
    400,
    'the retry was booked 400 ms after the 429: Retry-After, up to the ceiling',
  );
  release();
  const [delivery] = await settledDeliveries(ws.api, ep.id, (ds) => ds[0]?.attempt_count === 3);
  t.match(delivery, { attempt_count: 3, response_status: 204, status: 'succeeded' });
  // The endpoint's count is its own stream, projected apart from the delivery: it follows.
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}`)).body.consecutive_failures === 0, 10_000, 20, 'a success resets the counter');
});

t.test('15 consecutive failures disable the endpoint and mail the workspace; re-enabling clears the counter', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir, { workspaceArgs: ['--email', 'ops@example.com'] });
  receiver.reply = (r) => (r.path === '/down' ? { status: 503, body: 'maintenance' } : { status: 200 });
  t.teardown(() => {
    receiver.reply = () => ({ status: 200, body: 'ok' });
  });
  const ep = await endpoint(ws, '/down', ['customer.created']);
  for (let i = 0; i < 2; i++) await ws.api.post('/customers', { email: `down${i}@example.com` });
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}`)).body.status === 'disabled', 15_000);
  const disabled = (await ws.api.get(`/webhook_endpoints/${ep.id}`)).body;
  t.match(disabled, { status: 'disabled', consecutive_failures: 15, disabled_at: String, last_error_at: String });
  const outbox = join(e2e.dir, 'outbox');
  await until(async () => readdirSync(outbox).filter((f) => readFileSync(join(outbox, f), 'utf8').includes(ep.id)).length >= 2, 10_000);
  // The .eml bodies are quoted-printable: undo soft line breaks and =XX escapes before reading.
  const decode = (m: string) => m.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const mails = readdirSync(outbox)
    .map((f) => decode(readFileSync(join(outbox, f), 'utf8')))
    .filter((m) => m.includes(ep.id));
  const warning = mails.find((m) => /is failing/.test(m));
  const notice = mails.find((m) => /was disabled/.test(m));
  t.ok(warning, 'a warning at 10 failures');
  t.ok(notice, 'a notice when disabled');
  t.match(notice, /To: ops@example\.com/);
  t.ok(notice?.includes(`URL: ${receiver.url('/down')}`), 'the notice names the URL');
  t.match(notice, /HTTP 503/);
  const count = receiver.on('/down').length;
  const witness = await endpoint(ws, '/down-witness', ['customer.created']);
  await ws.api.post('/customers', { email: 'while-disabled@example.com' });
  // The witness's delivery of that event shows intake has passed it; once no delivery of the
  // disabled endpoint is pending (its retries are canceled), nothing more can reach /down.
  await settledDeliveries(ws.api, witness.id, (ds) => ds.length === 1);
  const down = await settledDeliveries(ws.api, ep.id);
  t.equal(down.length, 2, 'no delivery was queued for the event after the disabling');
  t.ok(
    down.every((d) => d.status === 'failed' || d.status === 'canceled'),
    'the two earlier ones are over (failed or canceled)',
  );
  t.equal(receiver.on('/down').length, count, 'nothing is sent to a disabled endpoint');
  const enabled = (await ws.api.patch(`/webhook_endpoints/${ep.id}`, { status: 'enabled' })).body;
  t.match(enabled, { status: 'enabled', consecutive_failures: 0, disabled_at: null });
});

t.test('410 Gone disables the endpoint at once', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  receiver.reply = (r) => (r.path === '/gone' ? { status: 410 } : { status: 200 });
  t.teardown(() => {
    receiver.reply = () => ({ status: 200, body: 'ok' });
  });
  const ep = await endpoint(ws, '/gone', ['customer.created']);
  await ws.api.post('/customers', { email: 'gone@example.com' });
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}`)).body.status === 'disabled', 10_000);
  t.equal(receiver.on('/gone').length, 1);
  // The endpoint counts an attempt before the delivery books it: wait for the booking.
  const [delivery] = await settledDeliveries(ws.api, ep.id, (ds) => ds.length === 1);
  t.match(delivery, { status: 'failed', response_status: 410, attempt_count: 1 });
  // The dispatcher's bookings are the workspace's history too: an audit by workspace sees the disable.
  const replay = (await admin(e2e.dir, 'events', 'replay', '--workspace', ws.workspaceId)).stdout;
  const endpointEvents = replay
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { stream: string; type: string; metadata: { workspace_id: string } })
    .filter((e) => e.stream === `webhook_endpoint-${ep.id}`);
  t.strictSame(
    endpointEvents.map((e) => [e.type, e.metadata.workspace_id]),
    [
      ['webhook_endpoint.created', ws.workspaceId],
      ['webhook_endpoint.delivery_failed', ws.workspaceId],
      ['webhook_endpoint.disabled', ws.workspaceId],
    ],
  );
});

t.test('roll_secret: the next delivery is signed with the new secret only', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const ep = await endpoint(ws, '/rolled', ['customer.created']);
  const { secret } = (await ws.api.post(`/webhook_endpoints/${ep.id}/roll_secret`)).body;
  await ws.api.post('/customers', { email: 'rolled@example.com' });
  const [hit] = await receiver.waitFor('/rolled', 1);
  t.ok(verifyWebhook(hit.raw, hit.headers['service-signature'] as string, secret));
  t.notOk(verifyWebhook(hit.raw, hit.headers['service-signature'] as string, ep.secret), 'the old secret stopped working');
});

t.test('test sends a ping; retry re-sends a delivery', async (t) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir);
  const ep = await endpoint(ws, '/ping', ['ticket.created']);
  const r = await ws.api.post(`/webhook_endpoints/${ep.id}/test`);
  t.strictSame(r.body, { object: 'webhook_endpoint', id: ep.id, test_event_enqueued: true });
  const [ping] = await receiver.waitFor('/ping', 1);
  t.match(ping.body, { type: 'ping', id: /^evt_/, data: { object: 'webhook_endpoint', id: ep.id } });
  const doc = (await ws.api.get('/openapi.json')).body;
  t.strictSame(conformsTo(doc, doc.webhooks.ping.post.requestBody.content['application/json'].schema)(ping.body), [], 'as webhooks.ping describes it');
  t.ok(verifyWebhook(ping.raw, ping.headers['service-signature'] as string, ep.secret));
  const delivery = ping.headers['service-webhook-id'] as string;
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data[0]?.status === 'succeeded', 10_000);
  const retry = await ws.api.post(`/webhook_endpoints/${ep.id}/deliveries/${delivery}/retry`);
  t.strictSame(retry.body, { object: 'webhook_delivery', id: delivery, retry_enqueued: true });
  const hits = await receiver.waitFor('/ping', 2);
  t.equal(hits[1].headers['service-webhook-id'], delivery);
  t.equal(hits[1].body.id, ping.body.id, 'the same event');
  await until(async () => (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data[0]?.attempt_count === 2, 10_000);
  expectError(t, await ws.api.post(`/webhook_endpoints/${ep.id}/deliveries/whd_01ARZ3NDEKTSV4RRFFQ69G5FAV/retry`), 404, 'not_found');
  t.equal((await ws.api.get('/events')).body.data[0].type, 'ping');
});
