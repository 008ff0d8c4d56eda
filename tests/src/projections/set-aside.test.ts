import { join } from 'node:path';
import t, { type Test } from 'tap';
import { silentLogger } from '@support/application';
import { formatPosition, RecordedEvent } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { Projector, readModelCheckpoint, SetAsideLog } from '@support/projections';
import { CUSTOMERS } from '@support/customers';
import type { ReadStore } from '@support/readstore';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { customerCreated, ev, tagCreated } from '../support/events';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';
import { ALL_PROJECTIONS } from '@support/catalog';
import { TAGS } from '@support/tags';

/** Customer metadata nested 999 levels deep: SQLite's JSON functions (the read model's indexes) refuse it as "malformed JSON". */
const deep = (levels = 999): Record<string, unknown> => {
  let m: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) m = { a: m };
  return m;
};
const poison = (id: string) => {
  const e = customerCreated(id);
  return { ...e, data: { ...(e.data as object), metadata: deep() } };
};

/** A read store that can be taken down: every call fails as a lost connection would, until it is back. */
const switchable = (real: ReadStore) => {
  const state = { down: false };
  const guard = <T extends object>(target: T, wrap?: (prop: string | symbol, value: unknown) => unknown): T =>
    new Proxy(target, {
      get(obj, prop) {
        const value = Reflect.get(obj, prop, obj) as unknown;
        if (typeof value !== 'function') return value;
        if (wrap) {
          const wrapped = wrap(prop, value);
          if (wrapped) return wrapped;
        }
        return (...args: unknown[]) => (state.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:27017')) : value.apply(obj, args));
      },
    });
  const store = guard(real, (prop, value) =>
    prop === 'collection' ? (spec: unknown) => guard((value as (s: unknown) => object).call(real, spec)) : prop === 'close' ? () => real.close() : undefined,
  );
  return { store, state };
};

const setup = (t: Test) => {
  const dir = tempDir('aside-');
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  const errors: Record<string, unknown>[] = [];
  const log = { ...silentLogger, error: (msg: string, fields?: Record<string, unknown>) => errors.push({ msg, ...fields }) };
  t.teardown(async () => {
    await events.close();
    await reads.close();
    removeDir(dir);
  });
  return { events, reads, errors, log };
};

const ids = async (reads: ReadStore, spec: { name: string }) =>
  (await reads.collection(spec).find({ orderBy: { field: 'id', direction: 'asc' } })).items.map((d) => d.id);
const fast = { backoff: { baseMs: 1, maxMs: 5 }, setAsideAfter: 3 };

t.test('the all-models projector sets aside the one event its read model refuses and goes on', async (t) => {
  const { events, reads, errors, log } = setup(t);
  await events.append('customer-cus_1', [customerCreated('cus_1')], 'no_stream');
  const bad = await events.append('customer-cus_2', [poison('cus_2')], 'no_stream');
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  await events.append('customer-cus_1', [ev('customer.updated', { id: 'cus_1', changes: { name: 'Ann' } })], 0);
  const projector = new Projector(events, reads, ALL_PROJECTIONS, log, fast);
  await projector.start();
  t.teardown(() => projector.stop());
  t.ok(await projector.waitFor(await events.head(), 10_000), 'the projector passed the poison event');
  await events.append('customer-cus_3', [customerCreated('cus_3')], 'no_stream');
  t.ok(await projector.waitFor(await events.head(), 10_000), 'and applies what comes after it');
  t.strictSame(await ids(reads, CUSTOMERS), ['cus_1', 'cus_3'], 'the customers read model goes on past it');
  t.strictSame(await ids(reads, TAGS), ['tag_1'], 'and so do the others');
  t.equal((await reads.collection(CUSTOMERS).get('cus_1'))?.name, 'Ann');
  t.equal(await reads.getCheckpoint('projector'), formatPosition(await events.head()), 'the checkpoint passed it');
  const [record] = await new SetAsideLog(reads).list();
  const poisoned = (await events.readStream('customer-cus_2'))[0];
  t.strictSame(record, {
    id: `customers:${formatPosition(bad.position)}`,
    read_model: 'customers',
    position: formatPosition(bad.position),
    stream: 'customer-cus_2',
    revision: 0,
    event_type: 'customer.created',
    event_id: poisoned.id,
    error: 'malformed JSON',
    first_failed_at: record.first_failed_at,
    last_failed_at: record.last_failed_at,
    attempts: 5,
    status: 'set_aside',
    skipped_at: null,
  });
  t.strictSame(
    errors.map((e) => [e.msg, e.read_model, e.position, e.stream, e.revision, e.type]),
    [['event set aside: its read model cannot apply it; the projector goes on past it', 'customers', record.position, 'customer-cus_2', 0, 'customer.created']],
    'logged at error level once',
  );
  t.match(projector.health(), { status: 'running', failures: 0, set_aside: 1 });
  await projector.stop();

  // Durable: a projector started again knows it, skips it, and a rebuild leaves it out too.
  const again = new Projector(events, reads, ALL_PROJECTIONS, log, fast);
  await again.start();
  t.teardown(() => again.stop());
  t.match(again.health(), { set_aside: 1 });
  t.match(await again.rebuild(), { events: 5 }, 'the rebuild goes past it');
  t.strictSame(await ids(reads, CUSTOMERS), ['cus_1', 'cus_3']);
  t.equal(errors.length, 1, 'and nothing is set aside twice');
  // An operator skips it: health counts it no more (read again, at most a second later).
  await new SetAsideLog(reads).skip(record.id, '2026-01-01T00:00:00.000Z');
  await until(() => again.health()?.set_aside === 0, 5000, 50, 'set_aside 0 after the skip');
});

t.test('per-read-model projectors (the scale-out): only the read model that refuses the event sets it aside', async (t) => {
  const { events, reads, log } = setup(t);
  const bad = await events.append('customer-cus_2', [poison('cus_2')], 'no_stream');
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  await events.append('customer-cus_3', [customerCreated('cus_3')], 'no_stream');
  const one = (name: string) =>
    new Projector(
      events,
      reads,
      ALL_PROJECTIONS.filter((p) => p.collection.name === name),
      log,
      { ...fast, checkpoint: readModelCheckpoint(name), saveEveryMs: 20 },
    );
  const projectors = [one('customers'), one('tags'), one('workspaces')];
  for (const p of projectors) await p.start();
  t.teardown(() => Promise.all(projectors.map((p) => p.stop())));
  const head = await events.head();
  for (const p of projectors) t.ok(await p.waitFor(head, 10_000));
  t.strictSame(await ids(reads, CUSTOMERS), ['cus_3']);
  t.strictSame(await ids(reads, TAGS), ['tag_1']);
  t.strictSame(
    (await new SetAsideLog(reads).list()).map((r) => r.id),
    [`customers:${formatPosition(bad.position)}`],
  );
  t.strictSame(
    projectors.map((p) => p.health()?.set_aside),
    [1, 0, 0],
  );
  await until(async () => (await reads.getCheckpoint('projector:customers')) === formatPosition(head), 5000, 20, 'the customers checkpoint passed it');
});

t.test('a read store that is down sets nothing aside, and the projector recovers when it is back', async (t) => {
  const { events, reads, errors, log } = setup(t);
  const { store, state } = switchable(reads);
  const projector = new Projector(events, store, ALL_PROJECTIONS, log, fast);
  await projector.start();
  t.teardown(() => projector.stop());
  state.down = true;
  const appended: RecordedEvent[] = [];
  await events.append('customer-cus_1', [customerCreated('cus_1')], 'no_stream');
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  appended.push(...(await events.readAll({ commit: -1n, prepare: -1n }, 10)));
  // Well past the limit of identical failures, each one isolated and probed.
  await until(() => (projector.health()?.failures ?? 0) >= 10, 10_000, 5, 'ten failures');
  t.match(projector.health(), { status: 'retrying', last_error: 'connect ECONNREFUSED 127.0.0.1:27017' });
  state.down = false;
  t.ok(await projector.waitFor(appended[appended.length - 1].position, 10_000), 'recovered once the store is back');
  t.strictSame(await new SetAsideLog(reads).list(), [], 'nothing set aside');
  t.strictSame(errors, []);
  t.strictSame(await ids(reads, CUSTOMERS), ['cus_1']);
  t.strictSame(await ids(reads, TAGS), ['tag_1']);
  t.match(projector.health(), { status: 'running', failures: 0, set_aside: 0 });
});
