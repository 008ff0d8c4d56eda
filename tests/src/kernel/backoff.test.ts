import t from 'tap';
import { backoffMs } from '@support/kernel';

t.test('base × 2^(n−1), capped; n below 1 counts as the first', async (t) => {
  const policy = { baseMs: 100, maxMs: 1000 };
  t.strictSame(
    [0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy)),
    [100, 100, 200, 400, 800, 1000, 1000],
  );
  t.equal(backoffMs(5000, policy), 1000, 'an exponent that overflows to Infinity is still capped');
});

t.test('jitter adds up to its share of the wait, from the random source, and stays under the cap', async (t) => {
  const policy = { baseMs: 1000, maxMs: 10_000 };
  t.equal(
    backoffMs(1, policy, 0.1, () => 0),
    1000,
  );
  t.equal(
    backoffMs(1, policy, 0.1, () => 0.5),
    1050,
  );
  t.equal(
    backoffMs(4, policy, 0.1, () => 0.99),
    8792,
  );
  t.equal(
    backoffMs(5, policy, 0.1, () => 0.99),
    10_000,
    'capped after jitter',
  );
});
