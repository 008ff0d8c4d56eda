import t from 'tap';
import { workspacesOf } from '@support/workspaces';
import { customersOf } from '@support/customers';
import { Application, loadConfig, silentLogger } from '@support/application';
import { webhookEndpointsOf, webhookRecordsOf } from '@support/webhook-endpoints';
import { Payloads } from '@support/dispatcher';
import { START } from '@support/eventstore';
import { removeDir, tempDir } from '../support/service';
// Intake is internal to the dispatcher service; tested through its compiled module.
import { Intake } from '@support/dispatcher/dist/intake';
import { CATALOG } from '@support/catalog';

t.test('intake is idempotent: an event accepted twice records one event and one delivery per endpoint', async (t) => {
  const dir = tempDir('intake-');
  const app = new Application({
    catalog: CATALOG,
    config: loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
    log: silentLogger,
    projector: true,
  });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const admin = { workspaceId: null, actor: 'test', requestId: null };
  const { workspace } = await workspacesOf(app).commands.create(admin, { name: 'Intake' });
  const ctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  const a = await webhookEndpointsOf(app).create(ctx, { url: 'https://127.0.0.1:9/a', enabled_events: ['customer.created'] });
  const b = await webhookEndpointsOf(app).create(ctx, { url: 'https://127.0.0.1:9/b', enabled_events: ['*'] });
  await webhookEndpointsOf(app).create(ctx, { url: 'https://127.0.0.1:9/c', enabled_events: ['message.created'] });
  const created = await customersOf(app).commands.createOrMatch(ctx, { email: 'intake@example.com', name: 'In' });
  await app.settle(created.position);

  const log = await app.engines.events.readAll(START, 1000);
  const event = log.find((e) => e.type === 'customer.created')!;
  const intake = new Intake(app, new Payloads(app.engines.events, app));
  await intake.accept(event);
  await intake.accept(event);
  const events = await webhookRecordsOf(app).events.find(workspace.id, {});
  t.equal(events.items.length, 1);
  t.match(events.items[0], { type: 'customer.created', data: { object: 'customer', id: created.id, name: 'In', email: 'intake@example.com' } });
  const deliveries = await webhookRecordsOf(app).deliveries.find(workspace.id, {});
  t.strictSame(deliveries.items.map((d) => d.endpoint_id).sort(), [a.id, b.id].sort(), 'one delivery for each subscribed endpoint');
  t.ok(deliveries.items.every((d) => d.status === 'pending' && d.attempt_count === 0));

  await intake.accept(log.find((e) => e.type === 'workspace.created')!);
  t.equal((await webhookRecordsOf(app).events.find(workspace.id, {})).items.length, 1, 'types that are not webhook events are ignored');
});

t.test('payloads: each is the resource right after its event, whatever order events are built in', async (t) => {
  const dir = tempDir('payloads-');
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: true });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Payloads' });
  const ctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  const created = await customersOf(app).commands.createOrMatch(ctx, { email: 'fold@example.com', name: 'Name 0' });
  for (let i = 1; i <= 5; i++) await customersOf(app).commands.update(ctx, created.id, { name: `Name ${i}` });
  const log = (await app.engines.events.readAll(START, 1000)).filter((e) => e.stream === `customer-${created.id}`);
  t.equal(log.length, 6, 'a create and five updates');
  // Each built alone (a fresh fold from the stream's start): the reference.
  const alone = await Promise.all(log.map((e) => new Payloads(app.engines.events, app).build(e)));
  t.strictSame(
    alone.map((p) => p!.name),
    ['Name 0', 'Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'],
    'each payload is the customer right after its event',
  );
  const payloads = new Payloads(app.engines.events, app);
  const inOrder = [];
  for (const e of log) inOrder.push(await payloads.build(e));
  t.strictSame(inOrder, alone, 'built in order, each from the fold remembered from the one before');
  const shuffled = [3, 1, 5, 5, 0, 4, 2];
  const outOfOrder = [];
  for (const i of shuffled) outOfOrder.push(await payloads.build(log[i]));
  t.strictSame(
    outOfOrder,
    shuffled.map((i) => alone[i]),
    'built out of order and again, the same payloads',
  );
});
