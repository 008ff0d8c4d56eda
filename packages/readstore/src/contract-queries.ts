import type { Test } from 'tap';
import type { Person } from './contract';
import type { Collection, ReadStore } from './port';

/** What the contract's query tests share with the rest of the suite. */
export interface ContractContext {
  /** Opens another store on the same data (as a restarted process would). */
  open(): Promise<ReadStore>;
  store(): ReadStore;
  people(): Collection<Person>;
  person(n: number, over?: Partial<Person>): Person;
  /** Of this run: collections get fresh names. */
  suffix: string;
}

/** The read-store contract's search and bulk-load tests (contract.ts runs them with the rest). */
export const queryContract = (t: Test, ctx: ContractContext): void => {
  t.test('count: every document matching, however many, with an upper bound on a number', async (t) => {
    const c = ctx.store().collection<Person>({ name: `contract_count_${ctx.suffix}`, indexes: [['workspace_id']] });
    t.teardown(() => c.clear());
    await c.writeMany(
      Array.from({ length: 1205 }, (_, n) => ctx.person(1000 + n, { rank: n, vip: n % 5 === 0, name: n % 100 === 0 ? null : 'someone' })),
      [],
    );
    t.strictSame(
      [
        await c.count({}),
        await c.count({ vip: true }),
        await c.count({ vip: true }, { field: 'rank', value: 99 }),
        await c.count({}, { field: 'rank', value: 0 }),
        await c.count({ name: null }),
        await c.count({ vip: true, name: null }),
        await c.count({ workspace_id: 'ws_none' }),
      ],
      [1205, 241, 20, 1, 13, 13, 0],
    );
  });

  t.test('search is a case-insensitive substring match over several fields, with or without an index for it', async (t) => {
    const name = `contract_search_${ctx.suffix}`;
    // Written before the collection is first opened with its search index: a new index takes in what is there.
    const before = await ctx.open();
    await before.collection<Person>({ name, indexes: [['workspace_id']] }).put(ctx.person(22, { name: 'Grace Hopper', email: 'grace@navy.mil' }));
    await before.close();
    const searchable = ctx.store().collection<Person>({ name, indexes: [['workspace_id']], search: ['name', 'email'] });
    t.teardown(() => searchable.clear());
    for (const [label, c] of [
      ['scan', ctx.people()],
      ['indexed', searchable],
    ] as const) {
      await c.put(ctx.person(20, { name: 'Ada LOVELACE', email: 'ada@math.org' }));
      await c.put(ctx.person(21, { name: '100% real_name', email: 'x@y.z' }));
      await c.put(ctx.person(23, { name: 'Zoë "Z" Ünal', email: 'zoe@example.com' }));
      const ids = async (text: string, where = {}) => (await c.find({ where, search: { fields: ['name', 'email'], text }, limit: 10 })).items.map((p) => p.id);
      t.same(await ids('lovelace'), ['p_0020'], label);
      t.same(await ids('MATH.ORG'), ['p_0020'], label);
      t.same(await ids('0% r'), ['p_0021'], `${label}: % is literal`);
      t.same(await ids('a_l'), [], `${label}: _ is literal`);
      t.same(await ids('.*'), [], `${label}: regex characters are literal`);
      t.same(await ids('"Z"'), ['p_0023'], `${label}: quotes are literal`);
      t.same(await ids('ad'), ['p_0020'], `${label}: two characters (below a trigram)`);
      t.same(await ids('lovelace', { workspace_id: 'ws_odd' }), [], `${label}: with the other conditions`);
      t.same(await ids('laceada'), [], `${label}: a match never spans two fields`);
      await c.update('p_0020', { name: 'Ada Byron' });
      t.same(await ids('lovelace'), [], `${label}: an update is searched as it now is`);
      t.same(await ids('byron'), ['p_0020'], label);
      await c.delete('p_0020');
      t.same(await ids('byron'), [], `${label}: a deleted document is not found`);
    }
    const reopened = await ctx.open();
    t.teardown(() => reopened.close());
    const again = reopened.collection<Person>({ name, indexes: [['workspace_id']], search: ['name', 'email'] });
    t.same(
      (await again.find({ search: { fields: ['name', 'email'], text: 'hopper' } })).items.map((p) => p.id),
      ['p_0022'],
      'written before the index, found through it',
    );
    await again.writeMany([ctx.person(24, { name: 'Katherine Johnson' })], ['p_0022']);
    t.same(
      (await again.find({ search: { fields: ['name', 'email'], text: 'johnson' } })).items.map((p) => p.id),
      ['p_0024'],
      'bulk writes are indexed',
    );
    t.same((await again.find({ search: { fields: ['name', 'email'], text: 'hopper' } })).items, [], 'and bulk deletes');
  });

  t.test('a search whose text is partly common finds exactly its matches (SQLite looks the rare part up, then checks the whole)', async (t) => {
    const c = ctx.store().collection<Person>({ name: `contract_common_${ctx.suffix}`, indexes: [['workspace_id']], search: ['name', 'email'] });
    t.teardown(() => c.clear());
    // "growth" and "@example.com" are in 1,200 rows: over COMMON_TRIGRAM_ROWS.
    const grown = Array.from({ length: 1200 }, (_, n) => ctx.person(n, { workspace_id: 'ws_1', name: `Growth ${n}`, email: `growth${n}@example.com` }));
    // Holds the rare part of "growth1150@" ("th1150@"), not the whole.
    await c.writeMany([...grown, ctx.person(5000, { workspace_id: 'ws_1', name: 'Smith', email: 'smith1150@example.com' })], []);
    const emails = async (text: string) =>
      (await c.find({ where: { workspace_id: 'ws_1' }, search: { fields: ['name', 'email'], text }, limit: 10 })).items.map((p) => p.email);
    t.strictSame(await emails('growth1150@'), ['growth1150@example.com']);
    t.strictSame(await emails('GROWTH1150@EX'), ['growth1150@example.com'], 'case-insensitive');
    t.strictSame(await emails('th1150@'), ['smith1150@example.com', 'growth1150@example.com'], 'the rare part alone finds both');
    t.strictSame(await emails('Growth 1150'), ['growth1150@example.com'], 'in the other field');
    t.strictSame(await emails('growth1150@example.org'), [], 'nothing holds the whole');
  });

  t.test('clearForLoad empties a collection for a bulk load; every query finds what was loaded, during the load and after', async (t) => {
    const spec = { name: `contract_load_${ctx.suffix}`, indexes: [['workspace_id']], search: ['name', 'email'] };
    const c = ctx.store().collection<Person>(spec);
    t.teardown(() => c.clear());
    await c.put(ctx.person(60, { name: 'Cleared Entry' }));
    const ids = async (q: Parameters<typeof c.find>[0]) => (await c.find(q)).items.map((p) => p.id);
    const search = (text: string) => ids({ search: { fields: ['name', 'email'], text } });
    const load = await c.clearForLoad();
    t.strictSame(await ids({}), [], 'emptied');
    await c.writeMany([ctx.person(61, { name: 'Mary Jackson' }), ctx.person(62, { name: 'Dorothy Vaughan' })], []);
    t.strictSame(await ids({ where: { workspace_id: 'ws_odd' } }), ['p_0061'], 'by field, during the load');
    t.strictSame(await search('jackson'), ['p_0061'], 'searched, during the load');
    await load.finish();
    t.strictSame(await ids({ where: { workspace_id: 'ws_even' } }), ['p_0062'], 'by field, after');
    t.strictSame(await search('vaughan'), ['p_0062'], 'searched, after');
    t.strictSame(await search('cleared'), [], 'what was cleared is not found');
    await c.update('p_0062', { name: 'Dorothy Johnson' });
    await c.put(ctx.person(63, { name: 'Evelyn Boyd' }));
    t.strictSame(await search('johnson'), ['p_0062'], 'later updates are indexed again');
    t.strictSame(await search('evelyn'), ['p_0063'], 'and later puts');
    // A load cut short (the process died before finish): the next open indexes what is there.
    await c.clearForLoad();
    await c.writeMany([ctx.person(64, { name: 'Annie Easley' })], []);
    const reopened = await ctx.open();
    t.teardown(() => reopened.close());
    const again = reopened.collection<Person>(spec);
    t.strictSame(
      (await again.find({ search: { fields: ['name', 'email'], text: 'easley' } })).items.map((p) => p.id),
      ['p_0064'],
      'a load cut short is indexed at the next open',
    );
    await again.put(ctx.person(65, { name: 'Christine Darden' }));
    t.strictSame(
      (await again.find({ search: { fields: ['name', 'email'], text: 'darden' } })).items.map((p) => p.id),
      ['p_0065'],
      'and kept indexed',
    );
  });

  t.test('getText and findText give the same documents as JSON text', async (t) => {
    await ctx.people().put(ctx.person(50, { name: 'Text "quoted" ü' }));
    t.equal(await ctx.people().getText('p_none'), null);
    t.strictSame(JSON.parse((await ctx.people().getText('p_0050'))!), ctx.person(50, { name: 'Text "quoted" ü' }));
    const query = { where: { workspace_id: 'ws_even' }, limit: 3 };
    const [docs, texts] = [await ctx.people().find(query), await ctx.people().findText(query)];
    t.strictSame(
      { items: texts.items.map((d) => JSON.parse(d.text) as Person), hasMore: texts.hasMore },
      docs,
      'the same page, the same order, the same has-more',
    );
    t.strictSame(
      texts.items.map((d) => d.id),
      docs.items.map((d) => d.id),
      "each text with its document's id",
    );
    t.equal(texts.hasMore, true);
  });
};
