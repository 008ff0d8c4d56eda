import { join } from 'node:path';
import t from 'tap';
import { keyedIds } from '@support/application';
import { IdempotencyStore, IDEMPOTENCY_TTL_MS } from '@support/http';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { removeDir, tempDir } from '../support/service';

t.test('the idempotency record: proceed, retry after a failure or a lost answer, replay, mismatch, expiry', async (t) => {
  const dir = tempDir('idem-');
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await reads.close();
    removeDir(dir);
  });
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = new IdempotencyStore(reads, { now: () => new Date(now) });
  const fp = IdempotencyStore.fingerprint('POST', '/v1/tags', { name: 'a', color: null });
  const other = IdempotencyStore.fingerprint('POST', '/v1/tags', { name: 'b', color: null });
  t.equal(IdempotencyStore.fingerprint('POST', '/v1/tags', { color: null, name: 'a' }), fp, 'keys in another order: the same request');
  t.not(IdempotencyStore.fingerprint('POST', '/v1/tags', { name: 'a', color: 'red' }), fp, 'another value: another request');
  t.not(
    IdempotencyStore.fingerprint('POST', '/v1/tags', [{ name: 'a' }]),
    IdempotencyStore.fingerprint('POST', '/v1/tags', { 0: { name: 'a' } }),
    'an array is not an object',
  );

  const first = await store.begin('ws_1', 'k', fp);
  if (first.kind !== 'proceed') throw new Error('expected proceed');
  t.equal(first.firstSeenMs, now);
  now += 1000;
  // The answer was lost (the process died, or the client timed out): the same request goes on
  // at once, with the same key hash and first-seen time, so its commands find their writes.
  t.strictSame(await store.begin('ws_1', 'k', fp), first, 'a retry while (or after) the first try runs proceeds as the same request');
  const elsewhere = await store.begin('ws_2', 'k', fp);
  t.not((elsewhere as { key: string }).key, first.key, 'the recorded key is per workspace');
  await store.fail(first.entryId, 503);
  t.strictSame(await store.begin('ws_1', 'k', fp), first, 'after a 5xx the same request proceeds as itself');
  t.strictSame(await store.begin('ws_1', 'k', other), { kind: 'mismatch' }, 'after a 5xx the key is not free for another request: the first may be saved');
  await store.complete(first.entryId, 201, { id: 'tag_1' }, 'req_1');
  t.strictSame(await store.begin('ws_1', 'k', fp), { kind: 'replay', status: 201, body: { id: 'tag_1' }, requestId: 'req_1' });
  t.strictSame(await store.begin('ws_1', 'k', other), { kind: 'mismatch' });

  const refused = await store.begin('ws_1', 'refused', fp);
  await store.fail((refused as { entryId: string }).entryId, 409);
  now += 1000;
  const corrected = await store.begin('ws_1', 'refused', other);
  t.match(corrected, { kind: 'proceed', firstSeenMs: now }, 'after a 4xx the key may carry a corrected request, as a new one');

  now += IDEMPOTENCY_TTL_MS + 1;
  const reused = await store.begin('ws_1', 'k', other);
  t.match(reused, { kind: 'proceed', firstSeenMs: now }, 'after 24 hours the key is new again');
  t.not((reused as { key: string }).key, first.key, 'and its events carry another hash: the old writes are not taken for its own');
});

t.test('keyed ids: the same ids in the same order for the same key and time, ULID-shaped and time-ordered', async (t) => {
  const at = Date.parse('2026-03-01T12:00:00Z');
  const a = keyedIds('key-hash', at);
  const b = keyedIds('key-hash', at);
  const first = [a.next('conv_'), a.next('msg_'), a.next('msg_')];
  t.strictSame([b.next('conv_'), b.next('msg_'), b.next('msg_')], first);
  t.not(first[1], first[2]);
  t.not(keyedIds('other', at).next('conv_'), first[0]);
  t.match(first[0], /^conv_[0-9A-HJKMNP-TV-Z]{26}$/);
  t.ok(keyedIds('zzz', at + 1).next('conv_') > keyedIds('aaa', at).next('conv_'), 'a later first arrival sorts later');
});
