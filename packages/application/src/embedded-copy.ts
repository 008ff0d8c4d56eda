import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
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
 * Puts a copied file in `dataDir` in place of its namesake: copied beside, then renamed over
 * (a restore cut short never leaves half a file in place), with the old file's WAL removed.
 */
export const installCopy = (from: string, dataDir: string, name: string): void => {
  const target = join(dataDir, name);
  copyFileSync(join(from, name), `${target}.restoring`);
  for (const stale of [`${target}-wal`, `${target}-shm`]) rmSync(stale, { force: true });
  renameSync(`${target}.restoring`, target);
};
