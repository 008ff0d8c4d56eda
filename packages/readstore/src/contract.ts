import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import { queryContract } from './contract-queries';
import { Collection, Doc, ReadStore } from './port';

export interface Person extends Doc {
  workspace_id: string;
  name: string | null;
  email: string;
  vip: boolean;
  rank: number;
}

/** The behaviour every read store adapter must show; collections get fresh random names. */
export interface ContractOptions {
  /** False for a server known to run a conditional update as a read and a separate write (FerretDB 1.x). */
  atomicUpdate?: boolean;
}

export const readStoreContract = (t: Test, open: () => Promise<ReadStore>, options: ContractOptions = {}) => {
  let store: ReadStore;
  let people: Collection<Person>;
  const suffix = randomBytes(4).toString('hex');
  const person = (n: number, over: Partial<Person> = {}): Person => ({
    id: `p_${String(n).padStart(4, '0')}`,
    workspace_id: n % 2 ? 'ws_odd' : 'ws_even',
    name: `Name ${n}`,
    email: `p${n}@example.com`,
    vip: n % 3 === 0,
    rank: n % 5,
    ...over,
  });
  t.before(async () => {
    store = await open();
    people = store.collection<Person>({ name: `contract_${suffix}`, indexes: [['workspace_id'], ['workspace_id', 'vip']] });
  });
  t.teardown(async () => {
    await people.clear();
    await store.close();
  });

  t.test('put, get, insert, delete', async (t) => {
    t.equal(await people.get('p_none'), null);
    await people.put(person(1));
    t.same(await people.get('p_0001'), person(1));
    await people.put(person(1, { name: 'Renamed' }));
    t.equal((await people.get('p_0001'))?.name, 'Renamed', 'put replaces');
    t.equal(await people.insert(person(1)), false, 'insert refuses a taken id');
    t.equal(await people.insert(person(2)), true);
    t.equal(await people.delete('p_0002'), true);
    t.equal(await people.delete('p_0002'), false);
    t.equal(await people.get('p_0002'), null);
    await people.clear();
    t.same((await people.find({})).items, []);
  });

  t.test('update sets only the given fields, when the document matches', async (t) => {
    await people.put(person(30));
    t.equal(await people.update('p_0030', { name: 'Set', rank: 9 }), true);
    t.strictSame(await people.get('p_0030'), person(30, { name: 'Set', rank: 9 }), 'other fields are kept');
    t.equal(await people.update('p_0030', { name: null }, { rank: 9, vip: true }), true, 'null is stored; conditions on numbers and booleans');
    t.strictSame((await people.get('p_0030'))?.name, null);
    t.equal(await people.update('p_0030', { rank: 1 }, { rank: 8 }), false, 'a condition that does not hold changes nothing');
    t.equal(await people.update('p_0030', { rank: 1 }, { name: 'Set' }), false);
    t.equal(await people.update('p_0030', { rank: 1 }, { name: null, missing_field: null }), true, 'null matches a null or missing field');
    t.strictSame(await people.get('p_0030'), person(30, { name: null, rank: 1 }));
    t.equal(await people.update('p_none', { rank: 1 }), false, 'nothing is created');
    t.equal(await people.get('p_none'), null);
    await people.delete('p_0030');
  });

  t.test('update is a compare-and-set when writers race (leases and bookkeeping rely on it)', { skip: options.atomicUpdate === false }, async (t) => {
    await people.put(person(31, { email: 'v0' }));
    // Twenty writers that all read version v0 try to move it on: exactly one may win.
    const won = await Promise.all(Array.from({ length: 20 }, (_, i) => people.update('p_0031', { email: `v1-${i}`, rank: i }, { email: 'v0' })));
    t.equal(won.filter(Boolean).length, 1);
    const winner = won.indexOf(true);
    t.strictSame(await people.get('p_0031'), person(31, { email: `v1-${winner}`, rank: winner }));
    await people.delete('p_0031');
  });

  t.test('writeMany puts and deletes many documents at once', async (t) => {
    await people.put(person(40));
    await people.put(person(41));
    const many = Array.from({ length: 300 }, (_, i) => person(100 + i));
    await people.writeMany([...many, person(40, { name: 'Replaced' })], ['p_0041', 'p_none']);
    t.strictSame(await people.get('p_0040'), person(40, { name: 'Replaced' }), 'an existing document is replaced');
    t.equal(await people.get('p_0041'), null, 'deleted');
    t.strictSame(await people.get('p_0399'), person(399));
    await people.writeMany([], []);
    await people.writeMany([], [...many.map((p) => p.id), 'p_0040']);
    t.equal(await people.get('p_0100'), null);
    t.equal(await people.get('p_0040'), null);
  });

  t.test('writeMany inserts documents said to be new, and replaces one said new that is there', async (t) => {
    await people.put(person(43));
    const fresh = Array.from({ length: 50 }, (_, i) => person(500 + i));
    const ids = new Set([...fresh.map((p) => p.id), 'p_0043']);
    await people.writeMany([...fresh, person(43, { name: 'Replaced' }), person(44)], ['p_none'], ids);
    t.strictSame(await people.get('p_0043'), person(43, { name: 'Replaced' }), 'replaced, not refused or doubled');
    t.strictSame([await people.get('p_0500'), await people.get('p_0549'), await people.get('p_0044')], [person(500), person(549), person(44)]);
    await people.writeMany([], [...ids, 'p_0044']);
  });

  t.test('writeBatch writes several collections, then the checkpoint', async (t) => {
    const other = store.collection<Person>({ name: `contract_batch_${suffix}` });
    const checkpoint = `contract_batch_${suffix}`;
    await people.put(person(42));
    await store.writeBatch(
      [
        { collection: people.name, puts: [person(43), person(44)], deletes: ['p_0042'] },
        { collection: other.name, puts: [person(45, { name: 'Elsewhere' })], deletes: [] },
      ],
      { name: checkpoint, value: '7' },
    );
    t.strictSame([await people.get('p_0042'), await people.get('p_0043'), await people.get('p_0044')], [null, person(43), person(44)]);
    t.strictSame(await other.get('p_0045'), person(45, { name: 'Elsewhere' }));
    t.strictSame(await store.getCheckpoint(checkpoint), '7');
    await store.writeBatch([{ collection: people.name, puts: [], deletes: ['p_0043', 'p_0044'] }]);
    t.strictSame([await people.get('p_0043'), await store.getCheckpoint(checkpoint)], [null, '7'], 'no checkpoint given: none changed');
    await t.rejects(store.writeBatch([{ collection: `never_opened_${suffix}`, puts: [person(46)], deletes: [] }]), /not opened/);
    await other.clear();
    await store.deleteCheckpoint(checkpoint);
  });

  t.test('find filters by equality, booleans and null', async (t) => {
    for (let n = 1; n <= 12; n++) await people.put(person(n, n === 12 ? { name: null } : {}));
    const odd = await people.find({ where: { workspace_id: 'ws_odd' } });
    t.same(
      odd.items.map((p) => p.id),
      ['p_0011', 'p_0009', 'p_0007', 'p_0005', 'p_0003', 'p_0001'],
      'newest id first by default',
    );
    t.same(
      (await people.find({ where: { workspace_id: 'ws_odd', vip: true } })).items.map((p) => p.id),
      ['p_0009', 'p_0003'],
    );
    t.same(
      (await people.find({ where: { rank: 0 } })).items.map((p) => p.id),
      ['p_0010', 'p_0005'],
    );
    t.same(
      (await people.find({ where: { name: null } })).items.map((p) => p.id),
      ['p_0012'],
    );
  });

  t.test('cursor pages walk every document once', async (t) => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await people.find({ limit: 5, startingAfter: after });
      seen.push(...page.items.map((p) => p.id));
      if (!page.hasMore) break;
      after = page.items[page.items.length - 1].id;
    }
    t.equal(seen.length, 12);
    t.equal(new Set(seen).size, 12);
    t.same(seen, [...seen].sort().reverse());
    const asc = await people.find({ orderBy: { field: 'id', direction: 'asc' }, startingAfter: 'p_0010', limit: 5 });
    t.same(
      asc.items.map((p) => p.id),
      ['p_0011', 'p_0012'],
    );
    t.equal(asc.hasMore, false);
  });

  queryContract(t, { open, store: () => store, people: () => people, person, suffix });

  t.test('ordering by another field', async (t) => {
    const { items } = await people.find({ where: { workspace_id: 'ws_even' }, orderBy: { field: 'rank', direction: 'asc' } });
    t.same(
      items.map((p) => p.rank),
      [...items.map((p) => p.rank)].sort((a, b) => a - b),
    );
  });

  t.test('close lets the operations under way finish (index creation included); later ones fail', async (t) => {
    const other = await open();
    const spec = { name: `contract_close_${suffix}`, indexes: [['workspace_id'], ['workspace_id', 'rank']] };
    const c = other.collection<Person>(spec);
    const under = [c.put(person(40)), c.insert(person(41)), other.setCheckpoint(`close_${suffix}`, '1')];
    await other.close();
    t.same(
      (await Promise.allSettled(under)).map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled'],
    );
    await t.rejects(c.get('p_0040'), 'an operation after close fails');
    const again = store.collection<Person>(spec);
    t.same(
      (await again.find({})).items.map((p) => p.id),
      ['p_0041', 'p_0040'],
      'what was under way was written',
    );
    t.equal(await store.getCheckpoint(`close_${suffix}`), '1');
    await again.clear();
    await store.deleteCheckpoint(`close_${suffix}`);
  });

  t.test('checkpoints', async (t) => {
    const name = `contract_${suffix}`;
    t.equal(await store.getCheckpoint(name), null);
    await store.setCheckpoint(name, '42');
    await store.setCheckpoint(name, '43');
    t.equal(await store.getCheckpoint(name), '43');
    await store.deleteCheckpoint(name);
    t.equal(await store.getCheckpoint(name), null);
  });

  t.test('counters count each hit once per window, also when hits race', async (t) => {
    const key = `contract_${suffix}`;
    const windowMs = 60_000;
    t.strictSame([await store.incrementCounter(key, 0, windowMs), await store.incrementCounter(key, 0, windowMs)], [1, 2]);
    // Fifty hits at once (as from several API processes): each gets its own count.
    const counts = await Promise.all(Array.from({ length: 50 }, () => store.incrementCounter(key, windowMs, windowMs)));
    t.strictSame(
      [...counts].sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    t.equal(await store.incrementCounter(key, 2 * windowMs, windowMs), 1, 'a new window starts again at 1');
    t.equal(await store.incrementCounter(`${key}_other`, 2 * windowMs, windowMs), 1, 'keys are counted apart');
  });
};
