import t from 'tap';
import { API_VERSION } from '@support/http';
import { enableAgent, importArticles, kbId } from '../support/agent';
import { client } from '../support/client';
import { serviceFixture } from '../support/fixture';
import { Scrape, scrape } from '../support/prometheus';
import { Receiver, settledDeliveries, webhookEnv } from '../support/receiver';
import { until } from '../support/wait';

/**
 * GET /metrics on the embedded default: scraped, traffic driven through the API, scraped again,
 * and each series that should move has moved by what the traffic did.
 */
let receiver: Receiver;
const e2e = serviceFixture({
  env: async () => {
    receiver = await Receiver.start();
    return webhookEnv(receiver);
  },
  tenant: { name: 'Metrics' },
});
t.teardown(() => receiver.close());
const origin = () => new URL(e2e.svc.baseUrl).origin;

t.test('served without a key, in the Prometheus text format, with the process metrics', async (t) => {
  const res = await fetch(`${origin()}/metrics`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  const m = new Scrape(await res.text());
  for (const name of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes']) t.ok(m.names.has(name), name);
  // Counters by a known label start at 0, before anything happened: increase() sees their first event
  t.strictSame(
    [
      m.has('support_webhook_attempts_total', { outcome: 'gone' }),
      m.has('support_webhook_endpoint_disables_total', { reason: 'consecutive_failures' }),
      m.has('support_agent_escalations_total', { reason: 'no_answer' }),
      m.has('support_agent_credits_charged_total', { tier: 'ultra' }),
    ],
    [true, true, true, true],
  );
  t.equal(m.value('support_webhook_endpoint_disables_total', { reason: 'gone' }), 0);
  t.equal((await client(e2e.svc.baseUrl).get('/metrics')).status, 404, 'outside /v1 only');
});

t.test('traffic moves its series: requests, appends, consumers, webhook attempts and disables, agent turns and credits', async (t) => {
  await importArticles(e2e.dir, e2e.ws, [{ id: kbId(71), title: 'Refunds', content: 'Refunds reach your card within 5 business days of the return.' }]);
  await enableAgent(e2e.ws, { escalation: { enabled: true, keywords: ['human'], after_replies: null } });
  const endpoint = (await e2e.ws.api.post('/webhook_endpoints', { url: receiver.url('/metrics'), enabled_events: ['customer.created'] })).body;
  const gone = (await e2e.ws.api.post('/webhook_endpoints', { url: receiver.url('/gone'), enabled_events: ['customer.created'] })).body;
  receiver.reply = (r) => (r.path === '/gone' ? { status: 410, body: 'gone' } : { status: 200, body: 'ok' });
  await until(async () => (await scrape(origin())).value('support_consumer_lag_events', { consumer: 'projector' }) === 0, 10_000, 50, 'caught up');
  const before = await scrape(origin());

  const customer = await e2e.ws.api.post('/customers', { email: 'metrics@example.com' });
  t.equal(customer.status, 201);
  t.equal((await e2e.ws.api.get('/customers/cus_01JDQ5ASHBTBPZ44902DN3Z5SS')).status, 404);
  const conversation = (await e2e.ws.api.post('/conversations')).body;
  t.equal((await e2e.ws.api.post(`/conversations/${conversation.id}/messages`, { content: 'Hello' })).status, 201);
  await settledDeliveries(e2e.ws.api, endpoint.id, (ds) => ds.some((d) => d.status === 'succeeded'));
  await until(async () => (await e2e.ws.api.get(`/webhook_endpoints/${gone.id}`)).body.status === 'disabled', 10_000, 50, 'the 410 disables');
  const replied = await e2e.ws.api.post('/agent/messages', { message: 'How long do refunds take?' });
  t.strictSame([replied.status, replied.body.credits_used > 0], [200, true]);
  const handedOver = await e2e.ws.api.post('/agent/messages', { message: 'I want a human please' });
  t.equal(handedOver.body.escalation_reason, 'keyword');
  t.equal(receiver.on('/metrics').length, 1, 'one customer.created delivered');

  const after = await scrape(origin());
  const moved = (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);
  const http = 'http_server_request_duration_seconds_count';
  t.equal(moved(http, { method: 'POST', route: '/v1/customers', status: '201' }), 1, 'the POST, by route and status');
  t.equal(moved(http, { method: 'GET', route: '/v1/customers/:id', status: '404' }), 1, 'the 404, under the route, not the id');
  t.equal(moved(http, { method: 'GET', route: '/metrics', status: '200' }), 1, 'a scrape is counted once answered: the one before, under its path');
  t.ok(moved('support_eventstore_append_duration_seconds_count', { operation: 'append', outcome: 'ok' }) >= 3, 'appends timed');
  t.ok(moved('support_consumer_events_total', { consumer: 'projector' }) >= 3, 'the projector handled the events');
  t.ok(moved('support_consumer_position', { consumer: 'projector' }) > 0, 'and moved on');
  t.equal(after.value('support_consumer_up', { consumer: 'projector' }), 1);
  t.equal(
    after.value('support_instance_info', { role: 'standalone', version: API_VERSION }),
    1,
    'the process says what it is (the lease alerts leave the embedded default alone) and which release it runs',
  );
  const health = (await (await fetch(`${origin()}/healthz`)).json()) as { role: string; version: string };
  t.strictSame([health.role, health.version], ['standalone', API_VERSION], '/healthz says the same');
  t.equal(after.value('support_projection_set_aside_events', { consumer: 'projector' }), 0);
  t.equal(moved('support_webhook_attempts_total', { outcome: 'succeeded' }), 1, 'the delivery');
  t.equal(moved('support_webhook_attempts_total', { outcome: 'gone' }), 1, 'the 410');
  t.equal(moved('support_webhook_endpoint_disables_total', { reason: 'gone' }), 1, 'and the endpoint it disabled');
  t.equal(moved('support_webhook_attempt_duration_seconds_count', { outcome: 'succeeded' }), 1);
  t.equal(moved('support_agent_turns_total', { result: 'replied' }), 1);
  t.equal(moved('support_agent_turns_total', { result: 'escalated' }), 1);
  t.equal(moved('support_agent_escalations_total', { reason: 'keyword' }), 1);
  t.equal(moved('support_agent_credits_charged_total', { tier: replied.body.model_tier }), replied.body.credits_used, 'the credits the reply cost');
  t.ok(after.has('support_webhook_deliveries_pending'), 'deliveries waiting');
  const consumers = after.series('support_consumer_lag_seconds').map((s) => s.labels.consumer);
  t.ok(consumers.includes('projector') && consumers.length >= 3, `every consumer's lag: ${consumers.join(', ')}`);
});

t.test('the backlog gauges count the deliveries waiting, from the shared read store', async (t) => {
  // Given an endpoint that fails: its deliveries wait for their retries
  const failing = (await e2e.ws.api.post('/webhook_endpoints', { url: receiver.url('/failing'), enabled_events: ['customer.created'] })).body;
  receiver.reply = (r) => (r.path === '/failing' ? { status: 500, body: 'no' } : { status: 200, body: 'ok' });
  const pending = async () => (await scrape(origin())).value('support_webhook_deliveries_pending');
  for (let i = 0; i < 3; i++) t.equal((await e2e.ws.api.post('/customers', { email: `backlog-${i}@example.com` })).status, 201);
  // Then the gauge counts each of them while they wait (each retried, none given up yet)
  await until(async () => (await pending()) === 3, 10_000, 50, 'three deliveries waiting');
  t.ok((await scrape(origin())).value('support_webhook_deliveries_due') <= 3, 'due ones among them');
  // And none once the endpoint answers
  receiver.reply = () => ({ status: 200, body: 'ok' });
  await until(async () => (await pending()) === 0, 15_000, 50, 'the backlog delivered');
  t.equal((await e2e.ws.api.patch(`/webhook_endpoints/${failing.id}`, { status: 'disabled' })).status, 200);
});
