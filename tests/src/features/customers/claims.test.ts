import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { customersOf } from '@support/customers';
import { Application, loadConfig, openEngines, reservationStream, silentLogger } from '@support/application';
import { AppendResult, EventStore, PartialAppendError, StreamAppend } from '@support/eventstore';
import { removeDir, tempDir } from '../../support/service';
import { CATALOG } from '@support/catalog';

// A create claims the customer's e-mail, phone and external id and appends the customer in one
// appendMany. On SQLite that is all or none; an engine that appends one stream at a time
// (EventStoreDB) may stop after some claims: those must be released, and the create go on the
// careful way. This engine appends one stream at a time and lets the test act between two.

const oneStreamAtATime = (inner: EventStore, between: () => Promise<void>): EventStore => ({
  append: (...args) => inner.append(...args),
  appendMany: async (appends: readonly StreamAppend[]) => {
    const written: AppendResult[] = [];
    for (const a of appends) {
      try {
        if (written.length > 0) await between();
        written.push(await inner.append(a.stream, a.events, a.expected));
      } catch (err) {
        throw written.length === 0 ? err : new PartialAppendError(written, err);
      }
    }
    return written;
  },
  readStream: (...args) => inner.readStream(...args),
  readAll: (...args) => inner.readAll(...args),
  subscribe: (...args) => inner.subscribe(...args),
  head: () => inner.head(),
  countByType: () => inner.countByType(),
  close: () => inner.close(),
});

/** A started application on a fresh data directory (its event store wrapped by `wrap`), and a workspace's command context. */
const setup = async (t: Test, wrap: (events: EventStore) => EventStore = (events) => events) => {
  const dir = tempDir('claims-');
  const config = loadConfig({ DATA_DIR: dir });
  const engines = openEngines(config);
  const app = new Application({ catalog: CATALOG, config, log: silentLogger, projector: true, engines: { ...engines, events: wrap(engines.events) } });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Claims' });
  return { app, events: engines.events, workspaceId: workspace.id, ctx: { workspaceId: workspace.id, actor: 'test', requestId: null } };
};

t.test('a create stopped between its claims: by a conflict it matches the winner, by a fault it releases them', async (t) => {
  let meanwhile: (() => Promise<void>) | null = null;
  const between = async () => {
    const act = meanwhile;
    meanwhile = null;
    await act?.();
  };
  const { app, events, workspaceId, ctx } = await setup(t, (inner) => oneStreamAtATime(inner, between));
  const owner = async (kind: string, value: string) => {
    let holder: string | null = null;
    for (const e of await events.readStream(reservationStream(kind as never, workspaceId, value))) {
      holder = e.type === 'reservation.claimed' ? (e.data as { owner: string }).owner : null;
    }
    return holder;
  };

  // A plain create: its claims and the customer, nothing between them taken.
  const plain = await customersOf(app).commands.createOrMatch(ctx, { email: 'plain@example.com', phone: '+1 555 0101' });
  t.strictSame([plain.created, await owner('customer_email', 'plain@example.com'), await owner('customer_phone', '+15550101')], [true, plain.id, plain.id]);

  // Between this create's e-mail claim and its phone claim, another create takes the phone.
  let other: { id: string } | null = null;
  meanwhile = async () => {
    other = await customersOf(app).commands.createOrMatch(ctx, { phone: '+1 555 0102', name: 'Other' });
  };
  const stopped = await customersOf(app).commands.createOrMatch(ctx, { email: 'stopped@example.com', phone: '+1 555 0102' });
  t.ok(other, 'the other create ran between the two claims');
  t.strictSame([stopped.created, stopped.id], [false, other!.id], 'it answers with the customer that holds the phone');
  t.equal(await owner('customer_phone', '+15550102'), other!.id);
  t.equal(await owner('customer_email', 'stopped@example.com'), null, 'the e-mail it claimed first is free again');
  t.equal((await events.readStream(`customer-${other!.id}`)).length, 1);

  // A fault between two claims (the engine went away): the claim made is released, the error
  // goes on, and no customer is made.
  meanwhile = () => Promise.reject(new Error('the engine went away'));
  await t.rejects(customersOf(app).commands.createOrMatch(ctx, { email: 'fault@example.com', phone: '+1 555 0103' }), /the engine went away/);
  t.strictSame([await owner('customer_email', 'fault@example.com'), await owner('customer_phone', '+15550103')], [null, null]);
  const again = await customersOf(app).commands.createOrMatch(ctx, { email: 'fault@example.com', phone: '+1 555 0103' });
  t.strictSame([again.created, await owner('customer_email', 'fault@example.com')], [true, again.id], 'the values are free for the next create');
});

t.test('creates of one person in one turn: one group commit, one customer, the others match it', async (t) => {
  const { app, ctx } = await setup(t);
  // All decided on the same free values and appended in the same group: one appendMany wins,
  // the others conflict in it and go the careful way, which finds the winner.
  const results = await Promise.all(
    Array.from({ length: 8 }, () => customersOf(app).commands.createOrMatch(ctx, { email: 'same@example.com', phone: '+1 555 0199' })),
  );
  t.strictSame(results.map((r) => r.created).sort(), [false, false, false, false, false, false, false, true]);
  t.equal(new Set(results.map((r) => r.id)).size, 1);
});
