import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { MongoReadStore, SqliteReadStore } from '@support/readstore';
import { readStoreContract } from '@support/readstore/dist/contract';

t.test('sqlite adapter', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  readStoreContract(t, async () => new SqliteReadStore(join(dir, 'read.sqlite')));
});

t.test('sqlite adapter uses its indexes for id, cursor and filter lookups', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const Database = (await import('better-sqlite3')).default;
  const store = new SqliteReadStore(join(dir, 'read.sqlite'));
  store.collection({ name: 'things', indexes: [['workspace_id'], ['workspace_id', 'status']] });
  await store.close();
  const db = new Database(join(dir, 'read.sqlite'));
  const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
  const ws = "json_extract(doc, '$.workspace_id') = 'w'";
  t.match(plan('SELECT doc FROM rm_things WHERE id = \'x\''), /SEARCH .*PRIMARY KEY|SEARCH rm_things USING PRIMARY KEY/);
  t.match(plan(`SELECT doc FROM rm_things WHERE ${ws} AND id < 'x' ORDER BY id DESC LIMIT 21`), /SEARCH rm_things USING INDEX ix_things_workspace_id/);
  t.match(plan(`SELECT doc FROM rm_things WHERE ${ws} AND json_extract(doc, '$.status') = 'open' ORDER BY id DESC LIMIT 21`), /SEARCH rm_things USING INDEX ix_things_workspace_id_status/);
  t.notMatch(plan(`SELECT doc FROM rm_things WHERE ${ws} ORDER BY id DESC LIMIT 21`), /SCAN rm_things(?! USING)/);
  db.close();
});

t.test('mongodb adapter', { skip: process.env.MONGODB_URL ? false : 'MONGODB_URL is not set: MongoDB contract not run' }, async (t) => {
  readStoreContract(t, async () => new MongoReadStore(process.env.MONGODB_URL!));
});
