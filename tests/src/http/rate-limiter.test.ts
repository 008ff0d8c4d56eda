import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCounterStore, RateLimiter, SharedCounterStore } from '@support/http';
import { SqliteReadStore } from '@support/readstore/sqlite';

t.test('fixed 60-second windows per key and per workspace, scaled', async (t) => {
  let now = Date.parse('2026-01-01T00:00:10Z');
  const limiter = new RateLimiter(new MemoryCounterStore(), { now: () => new Date(now) }, 0.1);
  const subject = { key: 'key_1', workspace: 'ws_1' };
  const decisions = [];
  for (let i = 0; i < 7; i++) decisions.push(await limiter.check('write', subject));
  t.strictSame(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, true, false],
    'write: 60 × 0.1 = 6 per key',
  );
  t.strictSame(decisions[0], { allowed: true, limit: 6, remaining: 5, resetSeconds: 50 });
  t.equal((await limiter.check('read', subject)).allowed, true, 'tiers count apart');
  t.equal((await limiter.check('chat', { key: 'key_2', workspace: 'ws_1' })).limit, 2);
  now += 50_000;
  t.strictSame(await limiter.check('write', subject), { allowed: true, limit: 6, remaining: 5, resetSeconds: 60 }, 'a new window starts afresh');
});

t.test('the workspace limit binds across keys; refusals by a key do not spend it', async (t) => {
  const limiter = new RateLimiter(new MemoryCounterStore(), { now: () => new Date(0) }, 0.1);
  for (let i = 0; i < 20; i++) await limiter.check('chat', { key: 'key_a', workspace: 'ws' });
  const b = await limiter.check('chat', { key: 'key_b', workspace: 'ws' });
  t.equal(b.allowed, true, "key_a's refused requests did not use the workspace budget");
  const results = [];
  for (const k of ['key_c', 'key_d', 'key_e', 'key_f']) results.push(await limiter.check('chat', { key: k, workspace: 'ws' }));
  t.strictSame(
    results.map((r) => r.allowed),
    [true, true, true, false],
    'workspace chat limit 6 × 0.1 → 6',
  );
  t.equal(results[3].limit, 6);
});

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };

t.test('two API instances sharing the read store hold a workspace to its limit together', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'limits-'));
  const store = new SqliteReadStore(join(dir, 'read.sqlite'));
  // Two processes' worth: each its own connection to the shared store.
  const other = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const clock = { now: () => new Date(0) };
  const a = new RateLimiter(new SharedCounterStore(store, silent), clock, 0.1);
  const b = new RateLimiter(new SharedCounterStore(other, silent), clock, 0.1);
  const allowed: boolean[] = [];
  // Chat: 6 per workspace (× 0.1); each request with its own key, alternating instances.
  for (let i = 0; i < 10; i++) allowed.push((await (i % 2 ? b : a).check('chat', { key: `key_${i}`, workspace: 'ws' })).allowed);
  t.strictSame(allowed, [true, true, true, true, true, true, false, false, false, false]);
});

t.test('counters that cannot be reached fail open to this instance’s own limits, said once in the log', async (t) => {
  const warnings: string[] = [];
  const log = { ...silent, warn: (msg: string) => void warnings.push(msg) };
  const broken = { incrementCounter: () => Promise.reject(new Error('read store down')) } as unknown as SqliteReadStore;
  const limiter = new RateLimiter(new SharedCounterStore(broken, log), { now: () => new Date(0) }, 0.1);
  const allowed: boolean[] = [];
  for (let i = 0; i < 8; i++) allowed.push((await limiter.check('chat', { key: `key_${i}`, workspace: 'ws' })).allowed);
  t.strictSame(allowed, [true, true, true, true, true, true, false, false], 'requests are served, and still limited (6 per workspace) by this process');
  t.strictSame(warnings, ['shared rate-limit counters unreachable; counting in this process meanwhile (fail open)']);
});
