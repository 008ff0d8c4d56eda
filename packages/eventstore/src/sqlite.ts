import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { AppendResult, EventStore, ExpectedRevision, NewEvent, RecordedEvent, StreamAppend, Subscription, WrongExpectedRevisionError } from './port';
import { Position, START } from './position';
import { COLUMNS, Row, toRecorded } from './sqlite-recorded';

/** How often a subscription looks for events appended by another process (the admin CLI). */
const POLL_MS = 100;
const BATCH = 500;

/** An `append` (one part) or an `appendMany`, waiting for the next group commit. */
interface PendingAppend {
  parts: readonly StreamAppend[];
  resolve(results: AppendResult[]): void;
  reject(err: unknown): void;
}

/**
 * The embedded event store: one SQLite table in WAL mode. The unique (stream, revision)
 * index and IMMEDIATE transactions make appends safe across processes.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private readonly stmts;
  private readonly afterStatements = new Map<number, Database.Statement<[number], Row>>();
  private readonly afterOfTypesStatements = new Map<string, Database.Statement<unknown[], Row>>();
  /** Commits a group of appends in one IMMEDIATE transaction; each append in its own savepoint. */
  private readonly commitGroup: (group: readonly PendingAppend[]) => (AppendResult[] | Error)[];
  /** Appends waiting for the next group commit (the next turn of the event loop). */
  private pending: PendingAppend[] = [];
  /**
   * The last non-empty batches read, by the position they start after: several subscribers in
   * one process (projector, dispatcher…) wake for the same append and share one read. Only
   * non-empty batches are kept: events after a position never change, but "nothing yet" does.
   */
  private readonly recent = new Map<number, RecordedEvent[]>();

  /** `pollMs`: how often to look for appends by other processes. */
  constructor(
    file: string,
    private readonly pollMs = POLL_MS,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives a process crash; only a power cut can drop the last commits.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // Each append of a group runs in a savepoint, whose journal is otherwise a temporary file
    // written with a system call per page.
    this.db.pragma('temp_store = MEMORY');
    this.db.exec(`CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      stream TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      metadata TEXT NOT NULL,
      UNIQUE (stream, revision)
    )`);
    this.appended.setMaxListeners(0);
    this.stmts = {
      last: this.db.prepare<[string], { revision: number | null }>('SELECT max(revision) AS revision FROM events WHERE stream = ?'),
      insert: this.db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
      stream: this.db.prepare<[string, number], Row>(`SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`).raw(),
      head: this.db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM events'),
    };
    // Nested in the group's transaction, better-sqlite3 runs it as a savepoint: an append that
    // fails its expected revision rolls back alone, and the others of the group still commit.
    // An appendMany's parts share its savepoint: all of them, or none.
    const one = this.db.transaction((parts: readonly StreamAppend[]) => parts.map((p) => this.appendTx(p.stream, p.events, p.expected)));
    const group = this.db.transaction((appends: readonly PendingAppend[]) =>
      appends.map((a) => {
        try {
          return one(a.parts);
        } catch (err) {
          return err instanceof Error ? err : new Error(String(err));
        }
      }),
    );
    this.commitGroup = (appends) => group.immediate(appends);
  }

  private readonly appendTx = (stream: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult => {
    const last = this.stmts.last.get(stream)?.revision ?? null;
    const actual = last === null ? 'no_stream' : last;
    if (expected !== 'any' && expected !== actual) throw new WrongExpectedRevisionError(stream, expected, actual);
    let revision = last ?? -1;
    let seq = 0n;
    for (const e of events) {
      revision += 1;
      const info = this.stmts.insert.run(e.id, stream, revision, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
      seq = BigInt(info.lastInsertRowid);
    }
    return { revision, position: { commit: seq, prepare: seq } };
  };

  /**
   * Group commit: the appends that arrive during one turn of the event loop (concurrent
   * requests) are committed together, one transaction and one WAL write for all of them, each
   * still checked against its expected revision in the order it came. Each resolves only
   * once its group has committed.
   */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => this.enqueue({ parts: [{ stream, events, expected }], resolve: (results) => resolve(results[0]), reject }));
  }

  /** In the same group commit as `append`, all its parts in one savepoint: all or none. */
  appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((a) => a.events.length === 0)) return Promise.reject(new Error('appendMany needs appends of at least one event'));
    return new Promise((resolve, reject) => this.enqueue({ parts: appends, resolve, reject }));
  }

  private enqueue(append: PendingAppend): void {
    if (this.pending.length === 0) setImmediate(() => this.commitPending());
    this.pending.push(append);
  }

  private commitPending(): void {
    const appends = this.pending;
    this.pending = [];
    if (appends.length === 0) return;
    let results: (AppendResult[] | Error)[];
    try {
      results = this.commitGroup(appends);
    } catch (err) {
      // The group could not commit (the database busy past its timeout…): none of it did.
      for (const a of appends) a.reject(err);
      return;
    }
    appends.forEach((a, i) => {
      const r = results[i];
      if (r instanceof Error) a.reject(r);
      else a.resolve(r);
    });
    this.appended.emit('append');
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.stmts.stream.all(stream, fromRevision).map(toRecorded);
  }

  async readAll(after: Position, limit: number, types?: readonly string[]): Promise<RecordedEvent[]> {
    if (types === undefined) return this.after(limit).all(Number(after.commit)).map(toRecorded);
    if (types.length === 0) return [];
    return this.afterOfTypes(limit, types.length)
      .all(Number(after.commit), ...types)
      .map(toRecorded);
  }

  /**
   * The events after a position, `limit` of them. The LIMIT is written into the text: bound, it
   * makes SQLite re-prepare the statement on every run. One statement per limit (few: each
   * reader reads in batches of one size).
   */
  private after(limit: number): Database.Statement<[number], Row> {
    let stmt = this.afterStatements.get(limit);
    if (!stmt) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`invalid limit: ${limit}`);
      stmt = this.db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM events WHERE seq > ? ORDER BY seq LIMIT ${limit}`).raw();
      this.afterStatements.set(limit, stmt);
    }
    return stmt;
  }

  /** As `after`, of some types only: a scan of the log from `seq` (no index by type is kept for it). */
  private afterOfTypes(limit: number, typeCount: number): Database.Statement<unknown[], Row> {
    const key = `${limit}/${typeCount}`;
    let stmt = this.afterOfTypesStatements.get(key);
    if (!stmt) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`invalid limit: ${limit}`);
      const types = new Array(typeCount).fill('?').join(', ');
      stmt = this.db.prepare<unknown[], Row>(`SELECT ${COLUMNS} FROM events WHERE seq > ? AND type IN (${types}) ORDER BY seq LIMIT ${limit}`).raw();
      this.afterOfTypesStatements.set(key, stmt);
    }
    return stmt;
  }

  private batchAfter(seq: number): RecordedEvent[] {
    const shared = this.recent.get(seq);
    if (shared) return shared;
    const batch = this.after(BATCH).all(seq).map(toRecorded);
    if (batch.length > 0) {
      this.recent.set(seq, batch);
      if (this.recent.size > 8) this.recent.delete(this.recent.keys().next().value!);
    }
    return batch;
  }

  async head(): Promise<Position> {
    const seq = this.stmts.head.get()?.seq;
    return seq == null ? START : { commit: BigInt(seq), prepare: BigInt(seq) };
  }

  async countByType(): Promise<Record<string, number>> {
    // A scan of the table in SQLite (0.65 s for 1M events): no per-type index is kept for it.
    const rows = this.db.prepare<[], [string, number]>('SELECT type, count(*) FROM events GROUP BY type').raw().all();
    return Object.fromEntries(rows);
  }

  subscribe(after: Position, handler: (batch: RecordedEvent[]) => Promise<void>, onError: (err: unknown) => void): Subscription {
    let closed = false;
    let wake: (() => void) | null = null;
    const onAppend = () => wake?.();
    this.appended.on('append', onAppend);
    const loop = (async () => {
      let position = after;
      while (!closed) {
        // Read synchronously: with no await between an empty read and arming `wake`, an
        // append cannot slip in between and wait for the next poll.
        const batch = this.batchAfter(Number(position.commit));
        if (batch.length > 0) {
          await handler(batch);
          position = batch[batch.length - 1].position;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    })().catch((err) => {
      closed = true;
      onError(err);
    });
    return {
      close: async () => {
        closed = true;
        wake?.();
        await loop;
        this.appended.off('append', onAppend);
      },
    };
  }

  /**
   * A consistent copy of the log in `file` while it is written to (VACUUM INTO: one read
   * transaction, so the copy is the log as of its start; SQLite's page-by-page backup API would
   * restart whenever another process appends).
   */
  async snapshotTo(file: string): Promise<void> {
    this.commitPending();
    this.db.prepare('VACUUM INTO ?').run(file);
  }

  async close(): Promise<void> {
    this.commitPending();
    this.db.close();
  }
}
