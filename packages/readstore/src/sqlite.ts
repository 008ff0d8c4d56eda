import Database from 'better-sqlite3';
import { checkCollectionName, checkField, Collection, CollectionSpec, Doc, FindQuery, FindResult, ReadStore, Scalar } from './port';

const path = (field: string) => `json_extract(doc, '$.${checkField(field)}')`;
const bind = (v: Scalar) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
const likeEscape = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL and parameters that `find` runs for a query on `table` (exported for the query-plan test). */
export const sqliteQuery = (table: string, q: FindQuery): { sql: string; params: Scalar[] } => {
  const where: string[] = [];
  const params: Scalar[] = [];
  for (const [field, value] of Object.entries(q.where ?? {})) {
    if (value === null) where.push(`${path(field)} IS NULL`);
    else {
      where.push(`${path(field)} = ?`);
      params.push(bind(value));
    }
  }
  if (q.search && q.search.text !== '') {
    where.push(`(${q.search.fields.map((f) => `lower(${path(f)}) LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    for (let i = 0; i < q.search.fields.length; i++) params.push(`%${likeEscape(q.search.text)}%`);
  }
  const order = q.orderBy ?? { field: 'id', direction: 'desc' };
  const dir = order.direction === 'asc' ? 'ASC' : 'DESC';
  if (q.startingAfter !== undefined) {
    if (order.field !== 'id') throw new Error('startingAfter needs id ordering');
    where.push(`id ${dir === 'DESC' ? '<' : '>'} ?`);
    params.push(q.startingAfter);
  }
  const orderSql = order.field === 'id' ? `id ${dir}` : `${path(order.field)} ${dir}, id ${dir}`;
  let sql = `SELECT doc FROM "${table}"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderSql}`;
  // One more than asked, to tell whether there is a next page.
  if (q.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(q.limit + 1);
  }
  return { sql, params };
};

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    spec: CollectionSpec,
  ) {
    this.table = `rm_${checkCollectionName(spec.name)}`;
    db.exec(`CREATE TABLE IF NOT EXISTS "${this.table}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`);
    for (const fields of spec.indexes ?? []) {
      // Expression indexes: a query that filters on the same json_extract expressions uses them.
      const name = `ix_${spec.name}_${fields.join('_').replace(/\./g, '_')}`;
      db.exec(`CREATE INDEX IF NOT EXISTS "${name}" ON "${this.table}" (${fields.map(path).join(', ')}, id)`);
    }
  }

  /** Prepared once per distinct SQL text: queries differ only in their bound values. */
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  async get(id: string): Promise<T | null> {
    const row = this.stmt(`SELECT doc FROM "${this.table}" WHERE id = ?`).get(id) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async find(q: FindQuery): Promise<FindResult<T>> {
    const { sql, params } = sqliteQuery(this.table, q);
    const rows = this.stmt(sql).all(...params) as { doc: string }[];
    const hasMore = q.limit !== undefined && rows.length > q.limit;
    return { items: (hasMore ? rows.slice(0, q.limit) : rows).map((r) => JSON.parse(r.doc) as T), hasMore };
  }

  async put(doc: T): Promise<void> {
    this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`).run(doc.id, JSON.stringify(doc));
  }

  async insert(doc: T): Promise<boolean> {
    return this.stmt(`INSERT OR IGNORE INTO "${this.table}" (id, doc) VALUES (?, ?)`).run(doc.id, JSON.stringify(doc)).changes === 1;
  }

  async update(id: string, set: Partial<T>, where: Record<string, Scalar> = {}): Promise<boolean> {
    const fields = Object.keys(set).filter((f) => f !== 'id');
    if (fields.length === 0) throw new Error('update needs at least one field');
    // json_set with json(?) stores each value as JSON (null stays null, unlike json_patch).
    const assignments = fields.map((f) => `'$.${checkField(f)}', json(?)`).join(', ');
    const params: Scalar[] = fields.map((f) => JSON.stringify((set as Record<string, unknown>)[f] ?? null));
    const conditions = ['id = ?'];
    params.push(id);
    for (const [field, value] of Object.entries(where)) {
      if (value === null) conditions.push(`${path(field)} IS NULL`);
      else {
        conditions.push(`${path(field)} = ?`);
        params.push(bind(value));
      }
    }
    return this.stmt(`UPDATE "${this.table}" SET doc = json_set(doc, ${assignments}) WHERE ${conditions.join(' AND ')}`).run(...params).changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    return this.stmt(`DELETE FROM "${this.table}" WHERE id = ?`).run(id).changes === 1;
  }

  async writeMany(puts: readonly T[], deletes: readonly string[]): Promise<void> {
    if (puts.length === 0 && deletes.length === 0) return;
    const put = this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`);
    const del = this.stmt(`DELETE FROM "${this.table}" WHERE id = ?`);
    this.db.transaction(() => {
      for (const doc of puts) put.run(doc.id, JSON.stringify(doc));
      for (const id of deletes) del.run(id);
    })();
  }

  async clear(): Promise<void> {
    this.stmt(`DELETE FROM "${this.table}"`).run();
  }
}

/** The embedded read store: SQLite tables of JSON documents, with expression indexes. */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<Doc>>();
  private readonly checkpoint;
  private readonly counter: Database.Statement<[string, number], { count: number }>;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
    this.checkpoint = {
      get: this.db.prepare<[string], { value: string }>('SELECT value FROM checkpoints WHERE name = ?'),
      set: this.db.prepare('INSERT INTO checkpoints (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value'),
      delete: this.db.prepare('DELETE FROM checkpoints WHERE name = ?'),
    };
    // One row per key: a hit in a new window starts the count again, so old windows take no room.
    this.db.exec('CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID');
    this.counter = this.db.prepare(
      `INSERT INTO counters (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT(key) DO UPDATE SET count = CASE WHEN window_start = excluded.window_start THEN count + 1 ELSE 1 END, window_start = excluded.window_start
       RETURNING count`,
    );
  }

  collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
    let c = this.collections.get(spec.name);
    if (!c) {
      c = new SqliteCollection<Doc>(this.db, spec);
      this.collections.set(spec.name, c);
    }
    return c as unknown as Collection<T>;
  }

  async getCheckpoint(name: string): Promise<string | null> {
    return this.checkpoint.get.get(name)?.value ?? null;
  }

  async setCheckpoint(name: string, value: string): Promise<void> {
    this.checkpoint.set.run(name, value);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.checkpoint.delete.run(name);
  }

  async incrementCounter(key: string, windowStart: number): Promise<number> {
    return this.counter.get(key, windowStart)!.count;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
