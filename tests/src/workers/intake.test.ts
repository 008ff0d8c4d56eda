import t from 'tap';
import { workspacesOf } from '@support/workspaces';
import { customersOf } from '@support/customers';
import { Application, loadConfig, silentLogger } from '@support/application';
import { endpointsOf, webhookEndpointsOf, webhookRecordsOf } from '@support/webhook-endpoints';
import { Payloads } from '@support/dispatcher';
import { comparePositions, START, type Position } from '@support/eventstore';
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

t.test('an intake in log order remembers a workspace’s endpoints, never past a change the read models have not applied', async (t) => {
  const dir = tempDir('intake-remember-');
  const config = loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  // The intake's process runs no projector; the projector's process is stopped to hold the read models back.
  const intakeApp = new Application({ catalog: CATALOG, config, log: silentLogger, projector: false });
  let projecting = new Application({ catalog: CATALOG, config, log: silentLogger, projector: true });
  await projecting.start();
  t.teardown(async () => {
    await projecting.stop();
    await intakeApp.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(projecting).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Remember' });
  const ctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  const newCustomer = (n: number) => customersOf(intakeApp).commands.createOrMatch(ctx, { email: `c${n}@example.com`, name: `C${n}` });
  await projecting.settle(await newCustomer(1).then((c) => c.position));

  // Endpoint lookups, counted where every one of them goes.
  const endpoints = endpointsOf(intakeApp).all;
  const find = endpoints.find.bind(endpoints);
  let lookups = 0;
  endpoints.find = (query) => {
    lookups += 1;
    return find(query);
  };
  const intake = new Intake(intakeApp, new Payloads(intakeApp.engines.events, intakeApp), true);
  /** Where each intake has read to. */
  const read = new Map<Intake, Position>();
  /** Accepts the events appended since the intake's last call, in log order: the endpoint lookups it made. */
  const acceptNew = async (into = intake) => {
    const from = read.get(into) ?? START;
    const events = (await intakeApp.engines.events.readAll(from, 1000)).filter((e) => comparePositions(e.position, from) > 0);
    const before = lookups;
    for (const e of events) await into.accept(e);
    read.set(into, events[events.length - 1].position);
    return lookups - before;
  };
  const deliveries = async () => (await webhookRecordsOf(intakeApp).deliveries.find(workspace.id, {})).items.length;

  t.equal(await acceptNew(), 1, 'the first customer event looks the endpoints up');
  await newCustomer(2);
  t.equal(await acceptNew(), 0, 'the next one uses what it found');

  await projecting.stop();
  const endpoint = await webhookEndpointsOf(intakeApp).create(ctx, { url: 'https://127.0.0.1:9/a', enabled_events: ['customer.created'] });
  await newCustomer(3);
  t.equal(await acceptNew(), 1, 'the endpoint event made it look again');
  t.equal(await deliveries(), 0, 'an endpoint the read models do not hold yet receives nothing');
  // Restarted, an intake resumes after the endpoint event: it never sees it, and must not keep what it reads before the read models apply it.
  const restarted = new Intake(intakeApp, new Payloads(intakeApp.engines.events, intakeApp), true);
  read.set(restarted, read.get(intake)!);
  await newCustomer(31);
  await acceptNew(restarted);
  t.equal(await deliveries(), 0);

  projecting = new Application({ catalog: CATALOG, config, log: silentLogger, projector: true });
  await projecting.start();
  t.ok(await intakeApp.projectedPast(await intakeApp.engines.events.head(), 5000), 'the read models caught up');
  await newCustomer(4);
  await acceptNew(restarted);
  t.equal(await deliveries(), 1, 'restarted, what it read before the read models applied the endpoint was not kept');
  await acceptNew();
  t.equal(await deliveries(), 2, 'nor by the intake that saw the endpoint event (it is late for the 31st, which is sent now)');

  await webhookEndpointsOf(intakeApp).update(ctx, endpoint.id, { status: 'disabled' });
  t.ok(await intakeApp.projectedPast(await intakeApp.engines.events.head(), 5000));
  await newCustomer(5);
  t.equal(await acceptNew(), 1);
  t.equal(await deliveries(), 2, 'a disabled endpoint is forgotten at its event');
  await newCustomer(6);
  t.strictSame([await acceptNew(), await deliveries()], [0, 2], 'and the lookup after it is kept again');
});
