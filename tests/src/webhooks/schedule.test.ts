import t from 'tap';
import { MAX_ATTEMPTS, retryDelayMs } from '@support/webhooks';

const noJitter = { baseMs: 60_000, maxMs: 3_600_000, random: () => 0 };
const fullJitter = { ...noJitter, random: () => 0.999999 };

t.test('attempt n+1 waits base × 2^(n−1), capped at maxMs', async (t) => {
  t.equal(MAX_ATTEMPTS, 8);
  const delays = [];
  for (let n = 1; n < MAX_ATTEMPTS; n++) delays.push(retryDelayMs(n, noJitter));
  t.strictSame(delays, [60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
  t.equal(retryDelayMs(60, noJitter), 3_600_000, 'a huge exponent stays at the cap');
  t.equal(retryDelayMs(2000, noJitter), 3_600_000, '2^1999 overflows to Infinity, still capped');
});

t.test('jitter adds up to 10 %, never past the cap', async (t) => {
  t.equal(retryDelayMs(1, { ...noJitter, random: () => 0.5 }), 63_000);
  t.equal(retryDelayMs(1, fullJitter), 66_000);
  t.equal(retryDelayMs(6, fullJitter), 2_112_000);
  t.equal(retryDelayMs(7, fullJitter), 3_600_000, 'capped after jitter');
  const delays = Array.from({ length: 200 }, () => retryDelayMs(3, { baseMs: 1000, maxMs: 1e9 }));
  t.ok(Math.min(...delays) >= 4000 && Math.max(...delays) <= 4400, 'the default random stays within [4000, 4400]');
  t.ok(new Set(delays).size > 1, 'the default random jitters');
});

t.test('Retry-After lengthens the wait but is bounded by maxMs', async (t) => {
  t.equal(retryDelayMs(1, noJitter, 300_000), 300_000, 'longer Retry-After wins');
  t.equal(retryDelayMs(3, noJitter, 1_000), 240_000, 'shorter Retry-After does not shorten backoff');
  t.equal(retryDelayMs(1, noJitter, 86_400_000), 3_600_000, 'a day is cut to maxMs');
  t.equal(retryDelayMs(1, noJitter, null), 60_000);
  t.equal(retryDelayMs(1, noJitter, Number.NaN), 60_000, 'NaN ignored');
});

t.test('failedAttempt must be a positive integer', async (t) => {
  t.throws(() => retryDelayMs(0, noJitter), RangeError);
  t.throws(() => retryDelayMs(1.5, noJitter), RangeError);
});
