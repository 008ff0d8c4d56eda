import { readFileSync } from 'node:fs';
import { workspacesOf } from '@support/workspaces';
import t, { type Test } from 'tap';
import { Application, jsonLogger, loadConfig, openEngines } from '@support/application';
import { endpointsOf, webhookEndpointStream, webhookEndpointsOf, webhookRecordsOf } from '@support/webhook-endpoints';
import type { EventStore } from '@support/eventstore';
// The deliverer is internal to the dispatcher service; tested through its compiled module.
import { Deliverer } from '@support/dispatcher/dist/deliverer';
import { Receiver } from '../support/receiver';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';
import { CATALOG } from '@support/catalog';

// Webhook bookkeeping is exact under load: every attempt's outcome is counted on its endpoint
// (the disable rule fires at exactly the 15th failure in a row, however many fail at once), and
// booking an outcome never overwrites a retry requested while the attempt was in flight.

/** No automatic retry within a test: only the attempts the test causes are sent. */
const HOUR = { baseMs: 3_600_000, maxMs: 3_600_000 };

/**
 * The embedded store answers at once, so concurrent commands never interleave; a networked one
 * (EventStoreDB) answers a turn of the event loop later, and they do. This one does too.
 */
const networked = (inner: EventStore): EventStore => {
  const later = () => new Promise((resolve) => setImmediate(resolve));
  return {
    append: async (...args) => {
      await later();
      return inner.append(...args);
    },
    appendMany: async (...args) => {
      await later();
      return inner.appendMany(...args);
    },
    readStream: async (...args) => {
      await later();
      return inner.readStream(...args);
    },
    readAll: (...args) => inner.readAll(...args),
    subscribe: (...args) => inner.subscribe(...args),
    head: () => inner.head(),
    countByType: () => inner.countByType(),
    close: () => inner.close(),
  };
};

const setup = async (t: Test, concurrency: number) => {
  const dir = tempDir('bookkeeping-');
  const receiver = await Receiver.start();
  const lines: string[] = [];
  const config = loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const engines = openEngines(config);
  const app = new Application({
    catalog: CATALOG,
    config,
    log: jsonLogger('info', {}, (l) => lines.push(l)),
    projector: true,
    engines: { ...engines, events: networked(engines.events) },
  });
  await app.start();
  const deliverer = new Deliverer(app, app.log, { policy: HOUR, concurrency, extra: { ca: readFileSync(receiver.caFile) } });
  t.teardown(async () => {
    await deliverer.stop();
    await receiver.close();
    await app.stop();
    removeDir(dir);
  });
  const ctx = { workspaceId: null, actor: 'test', requestId: null };
  const { workspace } = await workspacesOf(app).commands.create(ctx, { name: 'Bookkeeping' });
  const wctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  const endpoint = await webhookEndpointsOf(app).create(wctx, { url: receiver.url('/hook'), enabled_events: ['customer.created'] });
  await app.settle(endpoint.position);
  /** `n` deliveries of distinct events to the endpoint, all due now. */
  const enqueue = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `whd_${String(i).padStart(26, '0')}`;
      const event = {
        id: `evt_${String(i).padStart(26, '0')}`,
        workspace_id: workspace.id,
        type: 'customer.created',
        data: { object: 'customer', n: i },
        created_at: new Date().toISOString(),
      };
      await webhookRecordsOf(app).recordEvent(event);
      await webhookRecordsOf(app).enqueue({ id, workspace_id: workspace.id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type });
      ids.push(id);
    }
    return ids;
  };
  const delivery = (id: string) => webhookRecordsOf(app).deliveryDocs.get(id);
  return { app, receiver, deliverer, endpoint, enqueue, delivery, lines, workspace };
};

/** Attempts wait at the receiver until `release` answers them all with `reply`. */
const gate = (receiver: Receiver, status: number) => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  receiver.reply = () => ({ status, body: `answer ${status}`, hold: opened });
  return open;
};

t.test('200 deliveries failing at once to one endpoint: every failure counted, disabled at exactly the 15th', async (t) => {
  const { app, receiver, deliverer, endpoint, enqueue, delivery, lines } = await setup(t, 200);
  const release = gate(receiver, 503);
  const ids = await enqueue(200);
  deliverer.start();
  // 200 attempts in flight; the sender's agent opens 50 sockets to one host: once those 50
  // wait at the receiver, all answer 503 together and the rest follow as sockets free up.
  await receiver.waitFor('/hook', 50, 30_000);
  release();
  await until(async () => (await Promise.all(ids.map(delivery))).every((d) => d?.attempt_count === 1), 30_000);

  const stream = await app.engines.events.readStream(webhookEndpointStream(endpoint.id));
  const counted = stream
    .filter((e) => e.type === 'webhook_endpoint.delivery_failed')
    .map((e) => (e.data as { consecutive_failures: number }).consecutive_failures);
  t.strictSame(
    counted,
    Array.from({ length: 15 }, (_, i) => i + 1),
    'failures 1 to 15 are counted, then the counter stands still',
  );
  t.strictSame(
    stream.map((e) => e.type).filter((type) => type !== 'webhook_endpoint.delivery_failed'),
    ['webhook_endpoint.created', 'webhook_endpoint.failure_warning', 'webhook_endpoint.disabled'],
  );
  const disabledAt = stream.findIndex((e) => e.type === 'webhook_endpoint.disabled');
  t.strictSame((stream[disabledAt - 1].data as { consecutive_failures: number }).consecutive_failures, 15, 'disabled right after the 15th failure');
  await app.settle(stream[stream.length - 1].position);
  t.match(await endpointsOf(app).all.get(endpoint.id), { status: 'disabled', consecutive_failures: 15 });
  const booked = await Promise.all(ids.map(delivery));
  t.strictSame(
    new Set(booked.map((d) => `${d?.status} ${d?.attempt_count} ${d?.response_status}`)),
    new Set(['pending 1 503']),
    'each delivery booked its one attempt',
  );
  t.strictSame(
    lines.filter((l) => /"level":"error"/.test(l)),
    [],
    'nothing failed unexpectedly',
  );
});

t.test('a retry requested while an attempt is in flight is kept when the attempt is booked', async (t) => {
  const { app, receiver, deliverer, enqueue, delivery, workspace, endpoint } = await setup(t, 4);
  const release = gate(receiver, 200);
  const [id] = await enqueue(1);
  deliverer.start();
  await receiver.waitFor('/hook', 1);
  t.strictSame(await webhookRecordsOf(app).retry(workspace.id, endpoint.id, id), true);
  release();
  // The retry stands: the delivery is sent again, and both attempts are booked.
  await receiver.waitFor('/hook', 2);
  await until(async () => (await delivery(id))?.attempt_count === 2 && (await delivery(id))?.status === 'succeeded', 10_000);
  t.match(await delivery(id), { status: 'succeeded', attempt_count: 2, response_status: 200, next_retry_at: null });
  t.strictSame(
    receiver.on('/hook').map((r) => r.headers['service-webhook-id']),
    [id, id],
  );
});

t.test('an outcome is booked once per attempt', async (t) => {
  const { app, enqueue, delivery } = await setup(t, 1);
  const [id] = await enqueue(1);
  const taken = (await delivery(id))!;
  const outcome = { ok: false, status: 500, responseBody: 'no', error: 'HTTP 500', nextRetryMs: null, attemptedAt: app.clock.now().getTime() };
  t.strictSame(await webhookRecordsOf(app).book(taken, outcome), true);
  t.strictSame(await webhookRecordsOf(app).book(taken, { ...outcome, status: 502 }), false, 'the same attempt again changes nothing');
  t.match(await delivery(id), { status: 'failed', attempt_count: 1, response_status: 500, last_error: 'HTTP 500' });
});
