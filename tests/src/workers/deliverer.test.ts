import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { Application, type Clock, loadConfig, silentLogger } from '@support/application';
import { webhookEndpointsOf, webhookRecordsOf } from '@support/webhook-endpoints';
import { removeDir, tempDir } from '../support/service';
// The deliverer is internal to the dispatcher service; tested through its compiled module.
import { Deliverer } from '@support/dispatcher/dist/deliverer';
import { until } from '../support/wait';
import { CATALOG } from '@support/catalog';

// Found by the fuzz (scripts/schemathesis.sh): retries of one delivery in quick succession left
// it due while its next attempt's lease was held, and the deliverer looked at it again and
// again without letting the event loop turn, so the whole process stopped answering until the
// lease ran out a minute later.

const setup = async (t: Test, options: { clock?: Clock; takeOverAfterMs?: number } = {}) => {
  const dir = tempDir('deliverer-');
  const config = loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const app = new Application({ catalog: CATALOG, config, log: silentLogger, projector: true, clock: options.clock });
  await app.start();
  const deliverer = new Deliverer(app, silentLogger, { policy: { baseMs: 60_000, maxMs: 60_000 }, takeOverAfterMs: options.takeOverAfterMs });
  t.teardown(async () => {
    await deliverer.stop();
    await app.stop();
    removeDir(dir);
  });
  const admin = { workspaceId: null, actor: 'test', requestId: null };
  const { workspace } = await workspacesOf(app).commands.create(admin, { name: 'Deliverer' });
  const ctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  // Port 9 on loopback: nothing listens, so every attempt fails at once.
  const endpoint = await webhookEndpointsOf(app).create(ctx, { url: 'https://127.0.0.1:9/hook', enabled_events: ['*'] });
  await app.settle(endpoint.position);
  const at = app.clock.now().toISOString();
  await webhookRecordsOf(app).recordEvent({
    id: 'evt_test1',
    workspace_id: workspace.id,
    type: 'ping',
    data: { object: 'webhook_endpoint', id: endpoint.id },
    created_at: at,
  });
  await webhookRecordsOf(app).enqueue({ id: 'whd_test1', workspace_id: workspace.id, endpoint_id: endpoint.id, event_id: 'evt_test1', event_type: 'ping' });
  return { app, deliverer, workspaceId: workspace.id, endpointId: endpoint.id };
};

/** How late a 20 ms timer fires: the event loop's responsiveness. */
const timerLateness = async () => {
  const started = performance.now();
  await new Promise((r) => setTimeout(r, 20));
  return performance.now() - started - 20;
};

t.test('a due delivery whose attempt is held elsewhere does not stall the process', async (t) => {
  const { app, deliverer } = await setup(t);
  t.equal(await webhookRecordsOf(app).lease('whd_test1', 1), 'taken', 'another taker holds attempt 1');
  deliverer.start();
  const lateness = [];
  for (let i = 0; i < 10; i++) lateness.push(await timerLateness());
  t.ok(Math.max(...lateness) < 500, `timers fire on time while the attempt is held (worst ${Math.round(Math.max(...lateness))} ms late)`);
  t.match(await webhookRecordsOf(app).deliveryDocs.get('whd_test1'), { status: 'pending', attempt_count: 0 }, 'and nothing was booked for it');
});

t.test('a retry and a booking written at once both count', async (t) => {
  const { app, workspaceId, endpointId } = await setup(t);
  const later = app.clock.now().getTime() + 60_000;
  const taken = (await webhookRecordsOf(app).deliveryDocs.get('whd_test1'))!;
  await Promise.all([
    webhookRecordsOf(app).book(taken, {
      ok: false,
      status: null,
      responseBody: null,
      error: 'ECONNREFUSED',
      nextRetryMs: later,
      attemptedAt: app.clock.now().getTime(),
    }),
    webhookRecordsOf(app).retry(workspaceId, endpointId, 'whd_test1'),
  ]);
  const doc = await webhookRecordsOf(app).deliveryDocs.get('whd_test1');
  t.match(doc, { status: 'pending', attempt_count: 1, last_error: 'ECONNREFUSED' }, 'the booking stands');
  t.ok(doc!.next_retry_ms! <= app.clock.now().getTime(), 'and the retry too: due now');
});

t.test('retries in quick succession: every attempt booked under its own number, none left behind', async (t) => {
  const { app, deliverer, workspaceId, endpointId } = await setup(t);
  deliverer.start();
  // Retries while attempts are out and being booked, as a client hammering retry does (fewer
  // than the 8 attempts after which a delivery is final). The 5 ms pauses are the scenario's
  // pacing (a client's retries interleaving with the deliverer), not a wait for an outcome.
  for (let i = 0; i < 5; i++) {
    await webhookRecordsOf(app).retry(workspaceId, endpointId, 'whd_test1');
    await new Promise((r) => setTimeout(r, 5));
  }
  // Every attempt is booked with its own number, and the last retry still gets its attempt.
  const settled = async () => {
    const d = await webhookRecordsOf(app).deliveryDocs.get('whd_test1');
    return d !== null && d.attempt_count >= 2 && d.next_retry_ms !== null && d.next_retry_ms > app.clock.now().getTime();
  };
  await until(settled, 10_000, 20, 'every retry booked');
  const doc = await webhookRecordsOf(app).deliveryDocs.get('whd_test1');
  t.match(doc, { status: 'pending', last_error: 'ECONNREFUSED' });
  t.ok(doc!.attempt_count >= 2, `attempts were made and booked (${doc!.attempt_count})`);
  t.ok(doc!.next_retry_ms! > app.clock.now().getTime(), 'the next attempt follows the backoff: no retry was left behind');
  for (let attempt = 1; attempt <= doc!.attempt_count; attempt++) {
    t.equal(await webhookRecordsOf(app).lease('whd_test1', attempt), 'held', `attempt ${attempt} was taken once and is booked`);
  }
  t.equal(await webhookRecordsOf(app).lease('whd_test1', doc!.attempt_count + 1), 'taken', 'the next attempt number is free: no booking was undone');
});

t.test('on the bus, a new delivery is left to the intake that recorded it, then taken over', async (t) => {
  // The test moves time on: the take-over waits a minute here.
  let offset = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offset) };
  const { app, deliverer, workspaceId, endpointId } = await setup(t, { clock, takeOverAfterMs: 60_000 });
  const attempts = async (id: string) => (await webhookRecordsOf(app).deliveryDocs.get(id))!.attempt_count;
  const record = async (event: string, delivery: string, type: string) => {
    await webhookRecordsOf(app).recordEvent({ id: event, workspace_id: workspaceId, type, data: { id: endpointId }, created_at: clock.now().toISOString() });
    await webhookRecordsOf(app).enqueue({ id: delivery, workspace_id: workspaceId, endpoint_id: endpointId, event_id: event, event_type: type });
  };
  // Recorded before this deliverer listens, as another dispatcher's intake would have.
  await record('evt_test3', 'whd_test3', 'customer.created');
  deliverer.start();
  // whd_test1, a ping the API recorded (setup), is nobody's intake's: sent at once.
  await until(async () => (await attempts('whd_test1')) === 1, 10_000, 20, 'the ping attempted');
  // whd_test2 is this process's own: enqueue hands it over.
  await record('evt_test2', 'whd_test2', 'customer.created');
  await until(async () => (await attempts('whd_test2')) === 1, 10_000, 20, 'its own delivery attempted');
  t.equal(await attempts('whd_test3'), 0, "the other intake's new delivery is left to it");
  offset = 61_000;
  deliverer.wake();
  await until(async () => (await attempts('whd_test3')) === 1, 10_000, 20, 'taken over');
  t.pass('after the take-over time, this deliverer sends it');
});

t.test('a retry is booked exactly its delay after the attempt (one clock reading for both)', async (t) => {
  // A clock that moves on at every reading: two readings would show in the difference.
  let readings = 0;
  const clock: Clock = { now: () => new Date(Date.now() + readings++) };
  const { app, deliverer } = await setup(t, { clock });
  deliverer.start();
  await until(async () => (await webhookRecordsOf(app).deliveryDocs.get('whd_test1'))!.attempt_count === 1, 10_000, 20, 'the first attempt booked');
  const doc = (await webhookRecordsOf(app).deliveryDocs.get('whd_test1'))!;
  // Port 9 refuses at once; the policy's ceiling (60 s) caps the delay, jitter included.
  t.equal(Date.parse(doc.next_retry_at!) - Date.parse(doc.last_attempt_at!), 60_000);
});
