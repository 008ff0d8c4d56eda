import t from 'tap';
import { LocalNatsServer, natsServerInstalled } from '../../support/nats';
import { OtlpReceiver } from '../../support/otlp';
import { Receiver, webhookEnv } from '../../support/receiver';
import { removeDir, tempDir } from '../../support/service';
import { until } from '../../support/wait';
import { tenant } from '../../support/workspace';
import { allReady, startInstance, type Instance } from './topology';

// The scale-out: api, projector, relay and dispatcher as separate processes over NATS, each
// exporting to one OTLP receiver. In CI nats-server is installed: never skipped there.
const skip = natsServerInstalled() || process.env.CI === 'true' ? false : 'nats-server not installed: the multi-process tracing test is not run';

t.test('across processes and NATS: one trace from the API request to the webhook receiver', { skip }, async (t) => {
  const nats = await LocalNatsServer.start();
  const otlp = await OtlpReceiver.start();
  const hooks = await Receiver.start();
  const dataDir = tempDir('traced-');
  const running: Instance[] = [];
  t.teardown(async () => {
    await Promise.all(running.map((i) => i.stop('SIGKILL')));
    await Promise.all([nats.destroy(), otlp.close(), hooks.close()]);
    removeDir(dataDir);
  });
  const env = { NATS_URL: nats.url, ...webhookEnv(hooks), ...otlp.env() };
  for (const role of ['projector', 'relay', 'dispatcher', 'api'] as const) running.push(await startInstance(role, `${role}-1`, dataDir, env));
  await allReady(running);
  const api = running.find((i) => i.role === 'api')!;
  const ws = await tenant(api.baseUrl, dataDir);
  await ws.api.post('/webhook_endpoints', { url: hooks.url('/scaled'), enabled_events: ['message.created'] });
  const conversation = (await ws.api.post('/conversations')).body;
  t.equal((await ws.api.post(`/conversations/${conversation.id}/messages`, { content: 'Across processes' })).status, 201);
  const [hit] = await hooks.waitFor('/scaled', 1, 20_000);
  const [, traceId, callerId] = String(hit.headers.traceparent).split('-');
  const services = () => new Set(otlp.trace(traceId).map((s) => s.service));
  await until(
    async () =>
      ['support-api', 'support-projector', 'support-relay', 'support-dispatcher'].every((s) => services().has(s)) &&
      otlp.trace(traceId).some((s) => s.spanId === callerId) &&
      otlp.trace(traceId).some((s) => s.parentSpanId === ''),
    15_000,
    100,
    'every service exported its spans',
  );
  const spans = otlp.trace(traceId);
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const path = (spanId: string) => {
    const out: string[] = [];
    for (let s = byId.get(spanId); s; s = byId.get(s.parentSpanId)) out.unshift(`${s.service}: ${s.name}`);
    return out;
  };
  t.strictSame(path(callerId).slice(0, 5), [
    'support-api: POST /v1/conversations/:id/messages',
    'support-api: append conversation',
    'support-relay: publish message.created',
    'support-dispatcher: intake message.created',
    'support-dispatcher: deliver message.created',
  ]);
  t.equal(byId.get(callerId)!.kind, 3, "and the attempt's HTTP call to the receiver");
  t.ok(
    spans.some((s) => s.service === 'support-projector' && s.name === 'project message.created' && byId.get(s.parentSpanId)?.name === 'append conversation'),
    'the projector applied it in the same trace',
  );
});
