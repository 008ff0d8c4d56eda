import { join } from 'node:path';
import t from 'tap';
import { IdempotencyStore, IDEMPOTENCY_TTL_MS } from '@support/application';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { removeDir, tempDir } from '../support/service';

t.test('the idempotency cache: proceed, in flight, replay, mismatch, expiry', async (t) => {
  const dir = tempDir('idem-');
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await reads.close();
    removeDir(dir);
  });
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = new IdempotencyStore(reads, { now: () => new Date(now) });
  const fp = IdempotencyStore.fingerprint('POST', '/v1/tags', '{"name":"a"}');

  const first = await store.begin('ws_1', 'k', fp);
  t.equal(first.kind, 'proceed');
  t.strictSame(await store.begin('ws_1', 'k', fp), { kind: 'in_flight' }, 'a second request while the first runs');
  t.strictSame(
    await store.begin('ws_2', 'k', fp),
    { kind: 'proceed', entryId: `ws_2:${(first as { entryId: string }).entryId.split(':')[1]}` },
    'keys are per workspace',
  );
  await store.complete((first as { entryId: string }).entryId, 201, { id: 'tag_1' });
  t.strictSame(await store.begin('ws_1', 'k', fp), { kind: 'replay', status: 201, body: { id: 'tag_1' } });
  t.strictSame(await store.begin('ws_1', 'k', IdempotencyStore.fingerprint('POST', '/v1/tags', '{"name":"b"}')), { kind: 'mismatch' });
  now += IDEMPOTENCY_TTL_MS + 1;
  t.equal((await store.begin('ws_1', 'k', fp)).kind, 'proceed', 'after 24 hours the key is new again');

  const stuck = await store.begin('ws_1', 'crashed', fp);
  t.equal(stuck.kind, 'proceed');
  t.equal((await store.begin('ws_1', 'crashed', fp)).kind, 'in_flight');
  now += 61_000;
  t.equal((await store.begin('ws_1', 'crashed', fp)).kind, 'proceed', 'an abandoned in-flight entry is taken over');
});
