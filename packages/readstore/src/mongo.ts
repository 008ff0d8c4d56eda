import type { MongoClient, Collection as MongoCollection, Db, Filter, IndexSpecification, Sort } from 'mongodb';
import { InFlight, type Logger } from '@support/kernel';
import { mongoClient, unavailableIfDisconnected } from './mongo-client';
import { ClientWatchdog } from './mongo-watchdog';
import { duplicates, SlotCounters } from './mongo-counters';
import { checkCollectionName, checkField, Collection, CollectionSpec, CollectionWrites, Doc, DocText, FindQuery, FindResult, ReadStore, Scalar } from './port';

type Stored = Doc & { _id: string };
/** Fresh documents are inserted in up to INSERT_PARTS concurrent insertMany calls once there are 2 × INSERT_PART. */
const INSERT_PARTS = 4;
const INSERT_PART = 1000;
const stored = <T extends Doc>(doc: T): Stored => ({ ...doc, _id: doc.id });
const chunks = <A>(items: readonly A[], size: number): A[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const strip = <T extends Doc>(d: Stored | null): T | null => {
  if (!d) return null;
  const { _id, ...doc } = d;
  return doc as T;
};

/** The key of the index declared as `fields`: those fields, then `_id` (the document id), all ascending. */
export const indexKey = (fields: readonly string[]): IndexSpecification =>
  Object.fromEntries([...fields.map((f) => [checkField(f), 1]), ['_id', 1]]) as IndexSpecification;

/** The filter, sort and limit that `find` sends for a query (exported for the explain test). */
export const mongoQuery = (q: FindQuery): { filter: Filter<Stored>; sort: Sort; limit?: number } => {
  const and: Filter<Stored>[] = [];
  for (const [field, value] of Object.entries(q.where ?? {})) and.push({ [checkField(field)]: value });
  if (q.search && q.search.text !== '') {
    const regex = { $regex: escapeRegex(q.search.text), $options: 'i' };
    and.push({ $or: q.search.fields.map((f) => ({ [checkField(f)]: regex })) });
  }
  const order = q.orderBy ?? { field: 'id', direction: 'desc' };
  const dir = order.direction === 'asc' ? 1 : -1;
  if (q.startingAfter !== undefined) {
    if (order.field !== 'id') throw new Error('startingAfter needs id ordering');
    and.push({ _id: dir === -1 ? { $lt: q.startingAfter } : { $gt: q.startingAfter } });
  }
  const sort: Sort = order.field === 'id' ? { _id: dir } : { [checkField(order.field)]: dir, _id: dir };
  // One more than asked, to tell whether there is a next page.
  return { filter: and.length ? { $and: and } : {}, sort, ...(q.limit !== undefined ? { limit: q.limit + 1 } : {}) };
};

class MongoReadCollection<T extends Doc> implements Collection<T> {
  private indexing: Promise<void> | null = null;
  readonly name: string;

  constructor(
    private readonly c: MongoCollection<Stored>,
    private readonly spec: CollectionSpec,
    private readonly ops: InFlight,
  ) {
    this.name = spec.name;
    // Started at once, so that queries find their indexes; close() waits for it.
    this.ops.track(this.indexed());
  }

  /** The declared indexes, created once; a failed creation (server unreachable) is tried again by the next operation. */
  private indexed(): Promise<void> {
    if (!this.indexing) {
      const indexing = Promise.all((this.spec.indexes ?? []).map((fields) => this.c.createIndex(indexKey(fields)))).then(() => undefined);
      indexing.catch(() => {
        if (this.indexing === indexing) this.indexing = null;
      });
      this.indexing = indexing;
    }
    return this.indexing;
  }

  private op<R>(fn: () => Promise<R>): Promise<R> {
    return this.ops.run(async () => {
      await this.indexed();
      return fn();
    });
  }

  get(id: string): Promise<T | null> {
    return this.op(async () => strip<T>(await this.c.findOne({ _id: id })));
  }

  find(q: FindQuery): Promise<FindResult<T>> {
    return this.op(async () => {
      const { filter, sort, limit } = mongoQuery(q);
      let cursor = this.c.find(filter).sort(sort);
      if (limit !== undefined) cursor = cursor.limit(limit);
      const docs = await cursor.toArray();
      const hasMore = q.limit !== undefined && docs.length > q.limit;
      return { items: (hasMore ? docs.slice(0, q.limit) : docs).map((d) => strip<T>(d)!), hasMore };
    });
  }

  async getText(id: string): Promise<string | null> {
    const doc = await this.get(id);
    return doc === null ? null : JSON.stringify(doc);
  }

  async findText(q: FindQuery): Promise<FindResult<DocText>> {
    const { items, hasMore } = await this.find(q);
    return { items: items.map((doc) => ({ id: doc.id, text: JSON.stringify(doc) })), hasMore };
  }

  put(doc: T): Promise<void> {
    return this.op(async () => {
      await this.c.replaceOne({ _id: doc.id }, { ...doc, _id: doc.id }, { upsert: true });
    });
  }

  insert(doc: T): Promise<boolean> {
    return this.op(async () => {
      try {
        await this.c.insertOne({ ...doc, _id: doc.id });
        return true;
      } catch (err) {
        if ((err as { code?: number }).code === 11000) return false;
        throw err;
      }
    });
  }

  update(id: string, set: Partial<T>, where: Record<string, Scalar> = {}): Promise<boolean> {
    const fields = Object.entries(set).filter(([f]) => f !== 'id');
    if (fields.length === 0) return Promise.reject(new Error('update needs at least one field'));
    return this.op(async () => {
      const filter = { _id: id, ...Object.fromEntries(Object.entries(where).map(([f, v]) => [checkField(f), v])) } as Filter<Stored>;
      const result = await this.c.updateOne(filter, { $set: Object.fromEntries(fields.map(([f, v]) => [checkField(f), v ?? null])) as Partial<Stored> });
      return result.matchedCount === 1;
    });
  }

  delete(id: string): Promise<boolean> {
    return this.op(async () => (await this.c.deleteOne({ _id: id })).deletedCount === 1);
  }

  writeMany(puts: readonly T[], deletes: readonly string[], fresh?: ReadonlySet<string>): Promise<void> {
    if (puts.length === 0 && deletes.length === 0) return Promise.resolve();
    return this.op(async () => {
      // New documents are inserted: FerretDB applies an upsert as a lookup and a write per
      // document, an insertMany in bulk (5,000 documents: 0.3 s against 5 to 7 s on PostgreSQL).
      const refused = fresh ? await this.insertNew(puts.filter((doc) => fresh.has(doc.id))) : [];
      const upserts = [...(fresh ? puts.filter((doc) => !fresh.has(doc.id)) : puts), ...refused];
      if (upserts.length === 0 && deletes.length === 0) return;
      await this.c.bulkWrite(
        [
          ...upserts.map((doc) => ({ replaceOne: { filter: { _id: doc.id }, replacement: stored(doc), upsert: true } })),
          ...deletes.map((id) => ({ deleteOne: { filter: { _id: id } } })),
        ],
        { ordered: false },
      );
    });
  }

  clear(): Promise<void> {
    return this.op(async () => {
      await this.c.deleteMany({});
    });
  }

  /**
   * Inserts documents believed new, in a few concurrent parts when there are many (FerretDB and
   * its PostgreSQL then share the machine's cores: 12,500 documents at 15k/s in one part, 24k/s
   * in four). Gives back those already there (duplicate ids), for the caller to replace.
   */
  private async insertNew(docs: readonly T[]): Promise<T[]> {
    const parts = docs.length >= INSERT_PART * 2 ? chunks(docs, Math.ceil(docs.length / INSERT_PARTS)) : [docs];
    const refused = await Promise.all(
      parts
        .filter((part) => part.length > 0)
        .map(async (part) => {
          try {
            await this.c.insertMany(part.map(stored), { ordered: false });
            return [];
          } catch (err) {
            const taken = duplicates(err);
            return part.filter((_, i) => taken.has(i));
          }
        }),
    );
    return refused.flat();
  }

  count(where: Record<string, Scalar>, atMost?: { field: string; value: number }): Promise<number> {
    const filter = mongoQuery({ where }).filter;
    return this.op(() => this.c.countDocuments(atMost ? { $and: [filter, { [checkField(atMost.field)]: { $lte: atMost.value } }] } : filter));
  }

  /**
   * Drops the collection and makes its indexes again, empty: a document-by-document delete of
   * 12,500 documents took FerretDB on PostgreSQL 0.9 s, a drop a few milliseconds. The indexes
   * are there before the load, so there is nothing to finish.
   */
  async clearForLoad(): Promise<{ finish(): Promise<void> }> {
    await this.op(async () => {
      // An empty collection (a first build) keeps its indexes: dropping and indexing it again cost more than nothing.
      if ((await this.c.findOne({}, { projection: { _id: 1 } })) === null) return;
      await this.c.drop().catch((err: unknown) => {
        // Already gone (another process's rebuild dropped it first).
        if ((err as { codeName?: string }).codeName !== 'NamespaceNotFound') throw err;
      });
      this.indexing = null;
      await this.indexed();
    });
    return { finish: async () => undefined };
  }
}

/** MongoDB adapter: the production read store, behind the same port as the embedded one. */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly collections = new Map<string, MongoReadCollection<Doc>>();
  private readonly watchdog: ClientWatchdog;
  private readonly ops = new InFlight('read store', (err) => {
    this.watchdog.failed(err);
    return unavailableIfDisconnected(err);
  });
  private closing: Promise<void> | null = null;

  /** The database is `dbName`, else the one the URL names, else the driver's default (`test`). `log`: the watchdog's reconnections. */
  constructor(url: string, dbName?: string, log: Pick<Logger, 'warn'> | null = null) {
    this.client = mongoClient(url);
    this.db = this.client.db(dbName);
    this.watchdog = new ClientWatchdog(this.client, url, log);
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    let c = this.collections.get(spec.name);
    if (!c) {
      c = new MongoReadCollection<Doc>(this.db.collection<Stored>(`rm_${checkCollectionName(spec.name)}`), spec, this.ops);
      this.collections.set(spec.name, c);
    }
    return c as unknown as Collection<T>;
  }

  /** No transaction (FerretDB has none): each bulk write is atomic alone; documents carry `_pos`. */
  async writeBatch(writes: readonly CollectionWrites[], checkpoint?: { name: string; value: string }): Promise<void> {
    for (const w of writes) {
      const c = this.collections.get(w.collection);
      if (!c) throw new Error(`writeBatch: collection ${w.collection} was not opened`);
      await c.writeMany(w.puts, w.deletes);
    }
    if (checkpoint) await this.setCheckpoint(checkpoint.name, checkpoint.value);
  }

  private checkpoints() {
    return this.db.collection<{ _id: string; value: string }>('checkpoints');
  }

  getCheckpoint(name: string): Promise<string | null> {
    return this.ops.run(async () => (await this.checkpoints().findOne({ _id: name }))?.value ?? null);
  }

  setCheckpoint(name: string, value: string): Promise<void> {
    return this.ops.run(async () => {
      await this.checkpoints().updateOne({ _id: name }, { $set: { value } }, { upsert: true });
    });
  }

  deleteCheckpoint(name: string): Promise<void> {
    return this.ops.run(async () => {
      await this.checkpoints().deleteOne({ _id: name });
    });
  }

  private lastSweep = 0;
  private readonly counters = new SlotCounters(() => this.db.collection('counters'));

  incrementCounter(key: string, windowStart: number, windowMs: number): Promise<number> {
    return this.ops.run(async () => {
      if (windowStart > this.lastSweep) {
        // Past windows are deleted as time moves on (no TTL monitor to rely on in FerretDB).
        this.lastSweep = windowStart;
        this.counters.forget(windowStart);
        this.ops.track(
          this.db
            .collection<{ _id: string; expires_at: number }>('counters')
            .deleteMany({ expires_at: { $lte: windowStart } })
            .then(() => undefined),
        );
      }
      return this.counters.hit(key, windowStart, windowMs);
    });
  }

  /** Lets every operation under way finish (index creation included), then closes the client. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.ops.drain();
      await this.watchdog.stop();
      await this.client.close();
    })();
    return this.closing;
  }
}

export { unavailableIfDisconnected } from './mongo-client';
