import t from 'tap';
import { verifyWebhook } from '@support/webhooks';
import { LocalNatsServer, natsServerInstalled } from '../support/nats';
import { Receiver, settledDeliveries, webhookEnv } from '../support/receiver';
import { removeDir, startService, tempDir } from '../support/service';
import { tenant } from '../support/workspace';

const skip = process.env.NATS_URL || natsServerInstalled() ? false : 'nats-server not installed and NATS_URL not set: the NATS path is not run';

t.test('through NATS JetStream: relay → bus → dispatcher delivers a signed webhook', { skip }, async (t) => {
  const nats = process.env.NATS_URL ? null : await LocalNatsServer.start();
  const dir = tempDir();
  const receiver = await Receiver.start();
  const svc = await startService(dir, webhookEnv(receiver, { NATS_URL: process.env.NATS_URL ?? nats!.url }));
  t.teardown(async () => {
    await svc.stop();
    await receiver.close();
    await nats?.destroy();
    removeDir(dir);
  });
  t.match(svc.output.join('\n'), /"bus":"nats"/, 'the service runs on the NATS bus');
  const ws = await tenant(svc.baseUrl, dir);
  const ep = (await ws.api.post('/webhook_endpoints', { url: receiver.url('/nats'), enabled_events: ['conversation.created', 'message.created'] })).body;
  const c = (await ws.api.post('/conversations')).body;
  await ws.api.post(`/conversations/${c.id}/messages`, { content: 'via NATS' });
  const hits = await receiver.waitFor('/nats', 2, 15_000);
  // Arrival order is not promised (docs/guides/webhooks.md: the dispatcher takes in several bus
  // messages at once and sends concurrently), so the two are compared as a set.
  t.strictSame(hits.map((h) => h.body.type).sort(), ['conversation.created', 'message.created'], 'both events');
  const message = hits.find((h) => h.body.type === 'message.created')!;
  t.ok(hits.every((h) => verifyWebhook(h.raw, h.headers['service-signature'] as string, ep.secret)));
  // A later message is the marker: once its delivery and every other has settled, a second
  // send of either of the first two would have been booked and received: the count is final.
  const marker = (await ws.api.post(`/conversations/${c.id}/messages`, { content: 'marker' })).body;
  const deliveries = await settledDeliveries(ws.api, ep.id, (ds) => ds.length >= 3, 15_000);
  t.strictSame(deliveries.map((d) => [d.event_type, d.status]).reverse(), [
    ['conversation.created', 'succeeded'],
    ['message.created', 'succeeded'],
    ['message.created', 'succeeded'],
  ]);
  t.strictSame(
    receiver
      .on('/nats')
      .map((h) => h.body.data.id)
      .sort(),
    [c.id, message.body.data.id, marker.id].sort(),
    'each once',
  );
});
