import { copyFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { parsePosition } from '@support/eventstore';
import { EMBEDDED_FILES } from './engines';

// Loaded when used, as the adapters are (engines.ts): a process on other engines never loads it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const open = (file: string): BetterSqlite3.Database => new (require('better-sqlite3') as typeof BetterSqlite3)(file, { readonly: true, fileMustExist: true });

/** SQLite's own check of a copied file: `ok`, or what is wrong. */
export const integrityOf = (file: string): string => {
  const db = open(file);
  try {
    const verdict = db.pragma('integrity_check', { simple: true }) as string | undefined;
    return verdict ?? 'no answer';
  } finally {
    db.close();
  }
};

/** How many events a copied log holds. */
export const eventsInCopy = (dir: string): number => {
  const db = open(join(dir, EMBEDDED_FILES.events));
  try {
    return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/**
 * Puts copied files in `dataDir` in place of their namesakes: every file is copied beside its
 * target first, and only once all are copied is each renamed over it (with the old file's WAL
 * removed). A copy that fails (a full disk, a permission) leaves the folder as it was, the files
 * copied so far removed: never a new log beside an old read store. `onFile`: told before each copy.
 */
export const installCopies = (from: string, dataDir: string, names: readonly string[], onFile: (name: string) => void = () => undefined): void => {
  const staged = names.map((name) => ({ name, target: join(dataDir, name), beside: `${join(dataDir, name)}.restoring` }));
  const made: string[] = [];
  for (const { name, beside } of staged) {
    onFile(name);
    try {
      made.push(beside);
      copyFileSync(join(from, name), beside);
    } catch (err) {
      // Only files: whatever else sits at such a path is not this copy's to remove.
      for (const file of made) if (statSync(file, { throwIfNoEntry: false })?.isFile()) rmSync(file);
      throw new Error(`copying ${name} into ${dataDir} failed (${err instanceof Error ? err.message : String(err)}): nothing was restored`);
    }
  }
  for (const { target, beside } of staged) {
    for (const stale of [`${target}-wal`, `${target}-shm`]) rmSync(stale, { force: true });
    renameSync(beside, target);
  }
};

/** The last position (sequence number) of a copied log; 0 when it is empty. */
export const logHeadOfCopy = (dir: string): bigint => {
  const db = open(join(dir, EMBEDDED_FILES.events));
  try {
    return BigInt((db.prepare('SELECT coalesce(max(seq), 0) AS head FROM events').get() as { head: number }).head);
  } finally {
    db.close();
  }
};

/** Whether a checkpoint's value is a log position past `head` (other checkpoints are not positions). */
const beyond = (value: string, head: bigint): boolean => {
  try {
    return parsePosition(value).commit > head;
  } catch {
    return false;
  }
};

/**
 * The consumers whose checkpoints in a copied read store lie beyond `head`: a read store and a
 * log from different backups. Restored together, those consumers would wait for positions the
 * log reaches only with other events, and skip those events for good.
 */
export const checkpointsBeyond = (dir: string, head: bigint): string[] => {
  const db = open(join(dir, EMBEDDED_FILES.reads));
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get();
    if (!hasTable) return [];
    const rows = db.prepare('SELECT name, value FROM checkpoints').all() as { name: string; value: string }[];
    return rows.filter((r) => beyond(r.value, head)).map((r) => r.name);
  } finally {
    db.close();
  }
};

/**
 * Whether another process has the file open (the service, a backup): SQLite refuses an
 * exclusive lock while any other connection holds it, even an idle one in WAL mode.
 */
export const fileInUse = (file: string): boolean => {
  let db: BetterSqlite3.Database;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    db = new (require('better-sqlite3') as typeof BetterSqlite3)(file, { fileMustExist: true, timeout: 0 });
  } catch {
    return false;
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    // Anything else (a damaged file a restore is to replace) is not a lock another process holds.
    return (err as { code?: string }).code === 'SQLITE_BUSY';
  } finally {
    db.close();
  }
};
