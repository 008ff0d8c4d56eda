import { join } from 'node:path';
import t, { type Test } from 'tap';
import { silentLogger } from '@support/application';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { Projector } from '@support/projections';
import { CUSTOMERS } from '@support/customers';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { customerCreated, ev, messageData, tagCreated } from '../support/events';
import { removeDir, tempDir } from '../support/service';
import { within } from '../support/wait';
import { ALL_PROJECTIONS } from '@support/catalog';
import { TAGS } from '@support/tags';

const setup = (t: Test) => {
  const dir = tempDir('proj-');
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await events.close();
    await reads.close();
    removeDir(dir);
  });
  return { events, reads, dir };
};

const allDocs = async (reads: SqliteReadStore) => ({
  customers: (await reads.collection(CUSTOMERS).find({})).items,
  tags: (await reads.collection(TAGS).find({})).items,
});

t.test('an event applied twice changes nothing twice', async (t) => {
  const { events, reads } = setup(t);
  await events.append(
    'customer-cus_1',
    [customerCreated('cus_1', 'a@x.io'), ev('customer.updated', { id: 'cus_1', changes: { name: 'Ann' } }, '2026-01-02T00:00:00.000Z')],
    'no_stream',
  );
  await events.append(
    'tag-tag_1',
    [ev('tag.created', { id: 'tag_1', workspace_id: 'ws_1', name: 'A', color: null, is_active: true }), ev('tag.deleted', { id: 'tag_1' })],
    'no_stream',
  );
  const projector = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  const log = await events.readAll({ commit: -1n, prepare: -1n }, 100);
  await projector.applyBatch(log);
  const once = await allDocs(reads);
  t.equal(once.customers.length, 1);
  t.equal(once.customers[0].name, 'Ann');
  t.strictSame(once.tags, [], 'the deleted tag is gone');
  // Redelivery after a crash: the created event again must not undo the update.
  await projector.applyBatch(log.slice(0, 1));
  await projector.applyBatch(log);
  t.strictSame(await allDocs(reads), { customers: once.customers, tags: [] });
});

t.test('an event that leaves a document as it is does not write it', async (t) => {
  const { events, reads } = setup(t);
  await events.append('customer-cus_1', [customerCreated('cus_1')], 'no_stream');
  const message = (id: string, sender_type: 'agent' | 'customer') => ev('message.created', messageData(id, { sender_type }), '2026-01-03T00:00:00.000Z');
  await events.append('conversation-conv_1', [message('msg_1', 'agent')], 'any');
  const projector = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  const log = await events.readAll({ commit: -1n, prepare: -1n }, 100);
  await projector.applyBatch(log.slice(0, 1));
  const created = (await allDocs(reads)).customers[0];
  await projector.applyBatch(log.slice(1));
  t.strictSame((await allDocs(reads)).customers[0], created, "an agent's message leaves its customer as it was, and unwritten (the same _pos)");
  await events.append('conversation-conv_1', [message('msg_2', 'customer')], 'any');
  await projector.applyBatch(await events.readAll(log[1].position, 100));
  t.equal((await allDocs(reads)).customers[0].last_contact_at, '2026-01-03T00:00:00.000Z', "the customer's own message is their last contact");
});

t.test('a rebuild from the log gives the same documents', async (t) => {
  const { events, reads } = setup(t);
  const projector = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  await projector.start();
  for (let i = 0; i < 30; i++) {
    const r = await events.append(`customer-cus_${i}`, [customerCreated(`cus_${i}`, `c${i}@x.io`)], 'no_stream');
    if (i % 3 === 0) await events.append(`customer-cus_${i}`, [ev('customer.updated', { id: `cus_${i}`, changes: { status: 'archived' } })], r.revision);
  }
  await events.append('tag-tag_1', [tagCreated('tag_1'), ev('tag.deleted', { id: 'tag_1' })], 'no_stream');
  await events.append('tag-tag_2', [tagCreated('tag_2')], 'no_stream');
  // Later changes to documents written long before (across a bulk write, in a small flush).
  for (let i = 0; i < 30; i += 7) await events.append(`customer-cus_${i}`, [ev('customer.updated', { id: `cus_${i}`, changes: { name: `Late ${i}` } })], 'any');
  t.ok(await projector.waitFor(await events.head(), 5000));
  await projector.stop();
  const incremental = await allDocs(reads);
  t.equal(incremental.customers.length, 30);
  t.strictSame(
    incremental.tags.map((d) => d.id),
    ['tag_2'],
  );
  const result = await projector.rebuild();
  t.equal(result.events, 48);
  t.strictSame(await allDocs(reads), incremental, 'all in memory, one bulk write');
  // Documents written out every 4 changes: later events read them back from the store.
  const small = new Projector(events, reads, ALL_PROJECTIONS, silentLogger, { rebuildFlushAt: 4 });
  await small.rebuild();
  t.strictSame(await allDocs(reads), incremental, 'flushed every few documents');
});

t.test('a rebuild moves the checkpoints to where it ended: each rebuilt read model its own, the shared one only for a complete rebuild', async (t) => {
  const { events, reads } = setup(t);
  await events.append('customer-cus_1', [customerCreated('cus_1', 'a@x.io')], 'no_stream');
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  // The log's last event is one the tags do not handle: a rebuild of the tags reads only their
  // events, and still ends at the head.
  await events.append('customer-cus_2', [customerCreated('cus_2', 'b@x.io')], 'no_stream');
  const checkpoints = async () => ({
    shared: await reads.getCheckpoint('projector'),
    customers: await reads.getCheckpoint('projector:customers'),
    tags: await reads.getCheckpoint('projector:tags'),
  });
  const partial = await new Projector(
    events,
    reads,
    ALL_PROJECTIONS.filter((p) => p.collection.name === 'tags'),
    silentLogger,
  ).rebuild(undefined, { complete: false });
  t.strictSame(partial, { events: 1, ms: partial.ms, position: '3' }, 'one event read, the log passed to its end');
  t.strictSame(await checkpoints(), { shared: null, customers: null, tags: '3' }, 'a partial rebuild leaves the shared checkpoint alone');
  await new Projector(events, reads, ALL_PROJECTIONS, silentLogger).rebuild(undefined, { complete: true });
  t.strictSame(await checkpoints(), { shared: '3', customers: '3', tags: '3' });
  // A projector started now resumes after the rebuild: it has nothing left to apply.
  const live = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  await live.start();
  t.teardown(() => live.stop());
  t.strictSame(live.health()?.position, '3');
});

t.test('a new projector resumes from the checkpoint and catches up', async (t) => {
  const { events, reads } = setup(t);
  const first = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  await first.start();
  await events.append('customer-cus_a', [customerCreated('cus_a', 'a@x.io')], 'no_stream');
  t.ok(await first.waitFor(await events.head(), 5000));
  await first.stop();
  const checkpoint = await reads.getCheckpoint('projector');
  t.equal(checkpoint, '1');
  await events.append('customer-cus_b', [customerCreated('cus_b', 'b@x.io')], 'no_stream');
  const second = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  await second.start();
  t.ok(await second.waitFor(await events.head(), 5000));
  await second.stop();
  t.strictSame(
    (await allDocs(reads)).customers.map((c) => c.id),
    ['cus_b', 'cus_a'],
  );
  t.equal(await reads.getCheckpoint('projector'), '2');
});

t.test('waitFor is bounded: a position never reached answers false once its timeout is up', async (t) => {
  const { events, reads } = setup(t);
  const projector = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  // The 10 s deadline only turns a wait that never ends into a failure; it measures nothing.
  t.equal(await within(projector.waitFor({ commit: 99n, prepare: 99n }, 150), 10_000, 'waitFor with a 150 ms timeout'), false);
});

t.test('a rebuild keeps the documents events come back to across a flush, and reads the others back', async (t) => {
  const { events, reads } = setup(t);
  await events.append('customer-cus_1', [customerCreated('cus_1'), ev('customer.updated', { id: 'cus_1', changes: { name: 'Ann' } })], 'no_stream');
  // Written out every two documents: here, with cus_1 come back to, the tag only made.
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  await events.append('customer-cus_2', [customerCreated('cus_2')], 'no_stream');
  await events.append('customer-cus_1', [ev('customer.updated', { id: 'cus_1', changes: { name: 'Anna' } })], 'any');
  await events.append('customer-cus_2', [ev('customer.updated', { id: 'cus_2', changes: { name: 'Bo' } })], 'any');
  await events.append('tag-tag_1', [ev('tag.updated', { id: 'tag_1', changes: { color: '#000000' } })], 'any');
  // Every document read from the store during the rebuild, by collection.
  const gets: string[] = [];
  const counted = new Proxy(reads, {
    get: (target, prop, receiver) =>
      prop === 'collection'
        ? (spec: Parameters<SqliteReadStore['collection']>[0]) => {
            const c = target.collection(spec);
            return new Proxy(c, {
              get: (ct, p, r) =>
                p === 'get'
                  ? (id: string) => {
                      gets.push(`${spec.name}/${id}`);
                      return ct.get(id);
                    }
                  : (Reflect.get(ct, p, r) as unknown),
            });
          }
        : (Reflect.get(target, prop, receiver) as unknown),
  });
  await new Projector(events, counted, ALL_PROJECTIONS, silentLogger, { rebuildFlushAt: 2 }).rebuild();
  t.strictSame(gets, ['tags/tag_1'], 'the customers stayed known; the tag, only made before the flush, was read back');
  const docs = await allDocs(reads);
  t.strictSame(
    [docs.customers.map((d) => [d.id, d.name]), docs.tags.map((d) => d.color)],
    [
      [
        ['cus_2', 'Bo'],
        ['cus_1', 'Anna'],
      ],
      ['#000000'],
    ],
  );
});
