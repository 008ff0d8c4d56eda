import { MongoClient, type Collection as MongoCollection, type Db, type Filter, type Sort } from 'mongodb';
import { checkCollectionName, checkField, Collection, CollectionSpec, Doc, FindQuery, FindResult, ReadStore, Scalar } from './port';

type Stored = Doc & { _id: string };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const strip = <T extends Doc>(d: Stored | null): T | null => {
  if (!d) return null;
  const { _id, ...doc } = d;
  return doc as T;
};

class MongoReadCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly c: MongoCollection<Stored>, private readonly ready: Promise<unknown>) {}

  async get(id: string): Promise<T | null> {
    await this.ready;
    return strip<T>(await this.c.findOne({ _id: id }));
  }

  async find(q: FindQuery): Promise<FindResult<T>> {
    await this.ready;
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
    let cursor = this.c.find(and.length ? { $and: and } : {}).sort(sort);
    if (q.limit !== undefined) cursor = cursor.limit(q.limit + 1);
    const docs = await cursor.toArray();
    const hasMore = q.limit !== undefined && docs.length > q.limit;
    return { items: (hasMore ? docs.slice(0, q.limit) : docs).map((d) => strip<T>(d)!), hasMore };
  }

  async put(doc: T): Promise<void> {
    await this.ready;
    await this.c.replaceOne({ _id: doc.id }, { ...doc, _id: doc.id }, { upsert: true });
  }

  async insert(doc: T): Promise<boolean> {
    await this.ready;
    try {
      await this.c.insertOne({ ...doc, _id: doc.id });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async update(id: string, set: Partial<T>, where: Record<string, Scalar> = {}): Promise<boolean> {
    await this.ready;
    const fields = Object.entries(set).filter(([f]) => f !== 'id');
    if (fields.length === 0) throw new Error('update needs at least one field');
    const filter = { _id: id, ...Object.fromEntries(Object.entries(where).map(([f, v]) => [checkField(f), v])) } as Filter<Stored>;
    const result = await this.c.updateOne(filter, { $set: Object.fromEntries(fields.map(([f, v]) => [checkField(f), v ?? null])) as Partial<Stored> });
    return result.matchedCount === 1;
  }

  async delete(id: string): Promise<boolean> {
    await this.ready;
    return (await this.c.deleteOne({ _id: id })).deletedCount === 1;
  }

  async clear(): Promise<void> {
    await this.ready;
    await this.c.deleteMany({});
  }
}

/** MongoDB adapter: the production read store, behind the same port as the embedded one. */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly connected: Promise<MongoClient>;
  private readonly collections = new Map<string, MongoReadCollection<Doc>>();

  constructor(url: string, dbName?: string) {
    this.client = new MongoClient(url);
    this.connected = this.client.connect();
    this.db = this.client.db(dbName);
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    let c = this.collections.get(spec.name);
    if (!c) {
      const mc = this.db.collection<Stored>(`rm_${checkCollectionName(spec.name)}`);
      const ready = this.connected.then(() => Promise.all((spec.indexes ?? []).map((fields) =>
        mc.createIndex(Object.fromEntries([...fields.map((f) => [checkField(f), 1] as const), ['_id', 1] as const])))));
      c = new MongoReadCollection<Doc>(mc, ready);
      this.collections.set(spec.name, c);
    }
    return c as unknown as Collection<T>;
  }

  private checkpoints() {
    return this.db.collection<{ _id: string; value: string }>('checkpoints');
  }

  async getCheckpoint(name: string): Promise<string | null> {
    await this.connected;
    return (await this.checkpoints().findOne({ _id: name }))?.value ?? null;
  }

  async setCheckpoint(name: string, value: string): Promise<void> {
    await this.connected;
    await this.checkpoints().updateOne({ _id: name }, { $set: { value } }, { upsert: true });
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.connected;
    await this.checkpoints().deleteOne({ _id: name });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
