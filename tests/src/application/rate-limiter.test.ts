import t from 'tap';
import { MemoryCounterStore, RateLimiter } from '@support/application';

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
