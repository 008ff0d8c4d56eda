import t, { type Test } from 'tap';
import { serviceFixture } from '../support/fixture';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp';
import { Receiver, webhookEnv } from '../support/receiver';
import { until } from '../support/wait';

/**
 * One trace follows a write to its webhook (docs/operating/observability.md): the embedded
 * default exports its spans over OTLP/HTTP to a receiver started here, and the message POST's
 * trace holds the request, the append, the projection, the dispatcher's intake, the delivery
 * attempt and its HTTP call, whose `traceparent` reaches the webhook receiver.
 */
let otlp: OtlpReceiver;
let hooks: Receiver;
const e2e = serviceFixture({
  env: async () => {
    otlp = await OtlpReceiver.start();
    hooks = await Receiver.start();
    return { ...webhookEnv(hooks), ...otlp.env() };
  },
});
t.teardown(async () => {
  await hooks.close();
  await otlp.close();
});

/** Every span of the trace hangs from another of it, up to one root. */
const checkTree = (t: Test, spans: ReceivedSpan[]) => {
  const ids = new Set(spans.map((s) => s.spanId));
  t.strictSame(
    spans.filter((s) => s.parentSpanId === '').map((s) => s.name),
    [spans.find((s) => s.parentSpanId === '')?.name],
    'one root',
  );
  t.strictSame(
    spans.filter((s) => s.parentSpanId !== '' && !ids.has(s.parentSpanId)).map((s) => s.name),
    [],
    'no span whose parent is missing',
  );
};
/** The names from a span up to the root. */
const pathOf = (spans: ReceivedSpan[], span: ReceivedSpan): string[] => {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const path: string[] = [];
  for (let s: ReceivedSpan | undefined = span; s; s = byId.get(s.parentSpanId)) path.unshift(s.name);
  return path;
};

t.test('a message POST: request → append → projection, intake → delivery → HTTP call → the receiver, in one trace', async (t) => {
  const { api } = e2e.ws;
  await api.post('/webhook_endpoints', { url: hooks.url('/traced'), enabled_events: ['message.created'] });
  const conversation = (await api.post('/conversations')).body;
  const message = await api.post(`/conversations/${conversation.id}/messages`, { content: 'Traced' });
  t.equal(message.status, 201);
  const [hit] = await hooks.waitFor('/traced', 1);
  const traceparent = hit.headers.traceparent as string;
  t.match(traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'the webhook carries a W3C traceparent');
  const [, traceId, callerId] = traceparent.split('-');
  const expected = [
    'POST /v1/conversations/:id/messages',
    'append conversation',
    'project message.created',
    'intake message.created',
    'deliver message.created',
  ];
  await until(
    async () => expected.every((n) => otlp.trace(traceId).some((s) => s.name === n)) && otlp.trace(traceId).some((s) => s.spanId === callerId),
    10_000,
    50,
    'the spans exported',
  );
  const spans = otlp.trace(traceId);
  checkTree(t, spans);
  const call = spans.find((s) => s.spanId === callerId)!;
  t.equal(call.kind, 3, 'the receiver was called from an HTTP client span');
  t.strictSame(
    pathOf(spans, call),
    ['POST /v1/conversations/:id/messages', 'append conversation', 'intake message.created', 'deliver message.created', call.name],
    'request → append → intake → attempt → HTTP call',
  );
  const projected = spans.find((s) => s.name === 'project message.created')!;
  t.strictSame(pathOf(spans, projected), ['POST /v1/conversations/:id/messages', 'append conversation', 'project message.created']);
  const server = spans.find((s) => s.parentSpanId === '')!;
  t.strictSame([server.kind, server.attributes['http.route'], server.service], [2, '/v1/conversations/:id/messages', 'support-standalone']);
  t.strictSame(
    spans.filter((s) => s.name.startsWith('GET /') || /healthz|readyz|metrics/.test(s.name)).map((s) => s.name),
    [],
    'nothing else in the trace',
  );
});

t.test('a request without a write still has its trace; probes have none', async (t) => {
  const before = otlp.spans.length;
  await e2e.ws.api.get('/customers');
  await fetch(`${new URL(e2e.svc.baseUrl).origin}/healthz`);
  await until(async () => otlp.spans.slice(before).some((s) => s.name === 'GET /v1/customers'), 10_000, 50, 'the GET exported');
  t.strictSame(
    otlp.spans.slice(before).filter((s) => /healthz/.test(JSON.stringify([s.name, s.attributes]))),
    [],
  );
});
