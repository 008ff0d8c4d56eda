import Database from 'better-sqlite3';
import { checkCollectionName, checkField, Collection, CollectionSpec, CollectionWrites, Doc, DocText, FindQuery, FindResult, ReadStore, Scalar } from './port';
import { COMMON_TRIGRAM_ROWS, searchWindow } from './search-window';
import { path, bind, indexedSearch, phrase, sqliteCount, sqliteQuery } from './sqlite-query';

export { sqliteQuery } from './sqlite-query';
import { SEARCH_FLUSH_MS, SearchIndex, searchIndex, searchTables } from './search-index';

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly statements = new Map<string, Database.Statement>();
  /** The hottest statement, prepared up front rather than looked up by its text each time. */
  private readonly getStatement: Database.Statement;
  private readonly searchFields: readonly string[] | undefined;
  private readonly indexes: readonly { name: string; columns: string }[];
  private readonly search: SearchIndex | null;
  /** Between clearForLoad and its finish: the search index is empty. */
  private loading = false;
  /**
   * How many rows of the search index hold a trigram, up to COMMON_TRIGRAM_ROWS: what
   * `searchWindow` decides by. Counted once per minute at most (an estimate: a stale count
   * makes a search slower, never different).
   */
  private readonly trigramRows = new Map<string, number>();
  private trigramRowsSince = 0;

  readonly name: string;

  constructor(
    private readonly db: Database.Database,
    spec: CollectionSpec,
  ) {
    this.name = spec.name;
    this.table = `rm_${checkCollectionName(spec.name)}`;
    db.exec(`CREATE TABLE IF NOT EXISTS "${this.table}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`);
    // Expression indexes: a query that filters on the same json_extract expressions uses them.
    this.indexes = (spec.indexes ?? []).map((fields) => ({
      name: `ix_${spec.name}_${fields.join('_').replace(/\./g, '_')}`,
      columns: `${fields.map(path).join(', ')}, id`,
    }));
    this.createIndexes();
    this.getStatement = db.prepare(`SELECT doc FROM "${this.table}" WHERE id = ?`).pluck();
    this.searchFields = spec.search;
    this.search = spec.search ? searchIndex(db, this.table, spec.search) : null;
    this.search?.ensure();
    // What a process that ended before its flush left queued.
    this.search?.flush();
  }

  private flushTimer: NodeJS.Timeout | null = null;

  /** After a write: the documents it queued for the search index are indexed within SEARCH_FLUSH_MS, with the others of that time. */
  private written(): void {
    if (!this.search || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      try {
        this.search?.flush();
      } catch {
        // The file busy past its timeout: the next write or search flushes it.
      }
    }, SEARCH_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Indexes what is queued now (the store's close). */
  flushSearch(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.search?.flush();
  }

  private createIndexes() {
    for (const { name, columns } of this.indexes) this.db.exec(`CREATE INDEX IF NOT EXISTS "${name}" ON "${this.table}" (${columns})`);
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
    const text = await this.getText(id);
    return text === null ? null : (JSON.parse(text) as T);
  }

  async find(q: FindQuery): Promise<FindResult<T>> {
    const { items, hasMore } = await this.findText(q);
    return { items: items.map((d) => JSON.parse(d.text) as T), hasMore };
  }

  async getText(id: string): Promise<string | null> {
    return (this.getStatement.get(id) as string | undefined) ?? null;
  }

  async count(where: Record<string, Scalar>, atMost?: { field: string; value: number }): Promise<number> {
    const { sql, params } = sqliteCount(this.table, where, atMost);
    return this.stmt(sql)
      .pluck()
      .get(...params) as number;
  }

  private rowsWith(trigram: string): number {
    const now = Date.now();
    if (now - this.trigramRowsSince > 60_000 || this.trigramRows.size > 10_000) {
      this.trigramRows.clear();
      this.trigramRowsSince = now;
    }
    let n = this.trigramRows.get(trigram);
    if (n === undefined) {
      const { fts } = searchTables(this.table);
      n = this.stmt(`SELECT count(*) FROM (SELECT 1 FROM "${fts}" WHERE "${fts}" MATCH ? LIMIT ${COMMON_TRIGRAM_ROWS})`).pluck().get(phrase(trigram)) as number;
      this.trigramRows.set(trigram, n);
    }
    return n;
  }

  async findText(q: FindQuery): Promise<FindResult<DocText>> {
    const searchFields = this.loading ? undefined : this.searchFields;
    const indexed = !!q.search && indexedSearch(q.search, searchFields);
    // The index holds every write before this search, whichever process made it.
    if (indexed) this.search?.flush();
    const window = indexed ? searchWindow(q.search!.text, (t) => this.rowsWith(t)) : null;
    const { sql, params } = sqliteQuery(this.table, q, searchFields, window);
    const rows = this.stmt(sql)
      .raw()
      .all(...params) as [string, string][];
    const hasMore = q.limit !== undefined && rows.length > q.limit;
    const page = hasMore ? rows.slice(0, q.limit) : rows;
    return { items: page.map(([id, text]): DocText => ({ id, text })), hasMore };
  }

  async put(doc: T): Promise<void> {
    this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`).run(doc.id, JSON.stringify(doc));
    this.written();
  }

  async insert(doc: T): Promise<boolean> {
    const inserted = this.stmt(`INSERT OR IGNORE INTO "${this.table}" (id, doc) VALUES (?, ?)`).run(doc.id, JSON.stringify(doc)).changes === 1;
    if (inserted) this.written();
    return inserted;
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
    const updated = this.stmt(`UPDATE "${this.table}" SET doc = json_set(doc, ${assignments}) WHERE ${conditions.join(' AND ')}`).run(...params).changes === 1;
    if (updated) this.written();
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    return this.stmt(`DELETE FROM "${this.table}" WHERE id = ?`).run(id).changes === 1;
  }

  async writeMany(puts: readonly T[], deletes: readonly string[]): Promise<void> {
    if (puts.length === 0 && deletes.length === 0) return;
    this.db.transaction(() => this.writeManyInTransaction(puts, deletes))();
  }

  /** writeMany's statements, within the caller's transaction (the store's writeBatch). */
  writeManyInTransaction(puts: readonly T[], deletes: readonly string[]): void {
    const put = this.stmt(`INSERT INTO "${this.table}" (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`);
    const del = this.stmt(`DELETE FROM "${this.table}" WHERE id = ?`);
    for (const doc of puts) put.run(doc.id, JSON.stringify(doc));
    for (const id of deletes) del.run(id);
    if (puts.length > 0) this.written();
  }

  async clear(): Promise<void> {
    this.stmt(`DELETE FROM "${this.table}"`).run();
  }

  async clearForLoad(): Promise<{ finish(): Promise<void> }> {
    // Without its indexes and search triggers a document costs one table insert, and each index
    // is built once at the end (docs/performance.md: with the rebuild's other changes of that
    // step, 12.3 s of CPU → 8.3 s on a log of 200k mixed events). Meanwhile this process's
    // searches scan; another process's find only what the search index held.
    this.loading = true;
    this.db
      .transaction(() => {
        for (const { name } of this.indexes) this.db.exec(`DROP INDEX IF EXISTS "${name}"`);
        this.search?.suspend();
        this.db.exec(`DELETE FROM "${this.table}"`);
      })
      .immediate();
    return {
      finish: async () => {
        this.createIndexes();
        this.search?.ensure();
        this.loading = false;
      },
    };
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

  async writeBatch(writes: readonly CollectionWrites[], checkpoint?: { name: string; value: string }): Promise<void> {
    const collections = writes.map((w) => {
      const c = this.collections.get(w.collection);
      if (!c) throw new Error(`writeBatch: collection ${w.collection} was not opened`);
      return c;
    });
    // One commit for the lot: a projector's batch touching three read models and its checkpoint
    // was four, each with its own WAL frames and locks.
    this.db.transaction(() => {
      writes.forEach((w, i) => collections[i].writeManyInTransaction(w.puts, w.deletes));
      if (checkpoint) this.checkpoint.set.run(checkpoint.name, checkpoint.value);
    })();
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

  /** A consistent copy of every collection in `file`, as of its start, while it is written to (VACUUM INTO). */
  async snapshotTo(file: string): Promise<void> {
    for (const c of this.collections.values()) c.flushSearch();
    this.db.prepare('VACUUM INTO ?').run(file);
  }

  async close(): Promise<void> {
    try {
      for (const c of this.collections.values()) c.flushSearch();
    } finally {
      this.db.close();
    }
  }
}
