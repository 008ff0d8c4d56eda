import Database from 'better-sqlite3';
import { checkField } from './port';

/** The trigram index's tables of a collection's table: the index, its row numbers by id, and the ids waiting for it. */
export const searchTables = (table: string) => ({ fts: `${table}_search`, rows: `${table}_search_rows`, pending: `${table}_search_pending` });

/** How long a written document may wait to be indexed (its searches index it at once). */
export const SEARCH_FLUSH_MS = 100;

/** What a collection with searched fields does with its index. */
export interface SearchIndex {
  ensure(): void;
  flush(): void;
  suspend(): void;
}

/**
 * A trigram full-text index of `fields`: a row number per document id (FTS5 keys rows by
 * integer), and each field as a column, so a match never spans two fields. Triggers on every
 * write (this process's, and another's on the same file) queue the document's id in `pending`
 * (an update only when one of the fields changed; a delete unindexes at once), and `flush`
 * indexes what is queued in one transaction: FTS5 writes a segment per commit, so a document
 * indexed with many others costs a fraction of one indexed alone (docs/performance.md). A
 * search flushes first, so it sees every write before it, as if indexed in the write's own
 * transaction. `suspend` drops the triggers and empties the index for a bulk load; `ensure`
 * (at every open, and when the load is done) finds the triggers missing and fills the index
 * from the documents there, so a load cut short is indexed at the next open.
 */
export const searchIndex = (db: Database.Database, table: string, fields: readonly string[]): SearchIndex => {
  const { fts, rows, pending } = searchTables(table);
  const columns = fields.map((f) => `"${checkField(f).replace(/\./g, '_')}"`);
  // The searched fields of a document row `t`, as the index's columns.
  const values = fields.map((f) => `coalesce(json_extract(t.doc, '$.${checkField(f)}'), '')`).join(', ');
  const changed = fields.map((f) => `json_extract(old.doc, '$.${checkField(f)}') IS NOT json_extract(new.doc, '$.${checkField(f)}')`).join(' OR ');
  const createSearchTable = `CREATE VIRTUAL TABLE IF NOT EXISTS "${fts}" USING fts5(${columns.join(', ')}, tokenize = 'trigram');`;
  const createPending = `CREATE TABLE IF NOT EXISTS "${pending}" (id TEXT PRIMARY KEY) WITHOUT ROWID;`;
  const triggers = { insert: `${fts}_queue_insert`, update: `${fts}_queue_update`, delete: `${fts}_unindex` };
  // Named before documents were queued: they indexed in the write's transaction.
  const legacy = [`${fts}_insert`, `${fts}_update`, `${fts}_delete`];
  const kept = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?`);
  // Prepared on first use: the table is made by `ensure`.
  let queued: Database.Statement | null = null;
  // Not INSERT OR IGNORE: inside a trigger fired by the documents' upsert (INSERT … ON CONFLICT
  // DO UPDATE) the outer statement's conflict handling wins, so a document changed again before
  // the flush failed with "UNIQUE constraint failed" on the queue (and its batch was retried).
  const enqueue = `INSERT INTO "${pending}" (id) SELECT new.id WHERE NOT EXISTS (SELECT 1 FROM "${pending}" WHERE id = new.id);`;
  const queueChanges = `CREATE TRIGGER "${triggers.update}" AFTER UPDATE ON "${table}" WHEN ${changed} BEGIN ${enqueue} END;`;
  const flush = db.transaction(() =>
    db.exec(`
      DELETE FROM "${fts}" WHERE rowid IN (SELECT r.n FROM "${pending}" p JOIN "${rows}" r ON r.id = p.id);
      INSERT OR IGNORE INTO "${rows}" (id) SELECT id FROM "${pending}";
      INSERT INTO "${fts}" (rowid, ${columns.join(', ')})
        SELECT r.n, ${values} FROM "${pending}" p JOIN "${table}" t ON t.id = p.id JOIN "${rows}" r ON r.id = p.id;
      DELETE FROM "${pending}";
    `),
  );
  return {
    ensure: () =>
      // One IMMEDIATE transaction, so two processes opening the store together do not both fill it.
      db
        .transaction(() => {
          if (kept.get(triggers.insert) !== undefined) {
            // A store made before the queue's insert was fixed gets the update trigger again.
            db.exec(`DROP TRIGGER IF EXISTS "${triggers.update}"; ${queueChanges}`);
            return;
          }
          db.exec(`
            ${legacy.map((name) => `DROP TRIGGER IF EXISTS "${name}";`).join('\n')}
            CREATE TABLE IF NOT EXISTS "${rows}" (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
            ${createPending}
            ${createSearchTable}
            DELETE FROM "${fts}";
            DELETE FROM "${rows}";
            DELETE FROM "${pending}";
            INSERT INTO "${rows}" (id) SELECT id FROM "${table}" ORDER BY id;
            INSERT INTO "${fts}" (rowid, ${columns.join(', ')}) SELECT r.n, ${values} FROM "${table}" t JOIN "${rows}" r ON r.id = t.id;
            -- Merged into one segment: a search of 100k customers 390 → 210 µs (0.5 s to merge).
            INSERT INTO "${fts}" ("${fts}") VALUES ('optimize');
            CREATE TRIGGER "${triggers.insert}" AFTER INSERT ON "${table}" BEGIN ${enqueue} END;
            DROP TRIGGER IF EXISTS "${triggers.update}";
            ${queueChanges}
            CREATE TRIGGER IF NOT EXISTS "${triggers.delete}" AFTER DELETE ON "${table}" BEGIN
              DELETE FROM "${fts}" WHERE rowid = (SELECT n FROM "${rows}" WHERE id = old.id);
              DELETE FROM "${rows}" WHERE id = old.id;
              DELETE FROM "${pending}" WHERE id = old.id;
            END;
          `);
        })
        .immediate(),
    /** Indexes the queued documents (any process's), if there are any: one IMMEDIATE transaction. */
    flush: () => {
      queued ??= db.prepare(`SELECT 1 FROM "${pending}" LIMIT 1`);
      if (queued.get() !== undefined) flush.immediate();
    },
    /**
     * Within the caller's transaction. The index is dropped and made again empty: an FTS5
     * DELETE goes row by row (emptying 20k customers for a load took 198 ms with it, 35 ms
     * now). Other processes see it full or empty, never missing. The insert trigger goes last
     * when the index is filled again: it marks the index complete.
     */
    suspend: () =>
      db.exec(`
        DROP TRIGGER IF EXISTS "${triggers.insert}";
        DROP TRIGGER IF EXISTS "${triggers.update}";
        DROP TRIGGER IF EXISTS "${triggers.delete}";
        DROP TABLE IF EXISTS "${fts}";
        ${createSearchTable}
        DELETE FROM "${rows}";
        ${createPending}
        DELETE FROM "${pending}";
      `),
  };
};
