import t from 'tap';
import { ulidIds, uuidV7 } from '@support/application';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('uuidV7: the time in the first 48 bits, then version 7, random bits and the variant (RFC 9562)', async (t) => {
  const ms = Date.parse('2026-11-25T04:00:00.123Z'); // 0x01a2_10dc_427b
  t.strictSame(uuidV7(ms, new Uint8Array(10)), '01a210dc-427b-7000-8000-000000000000');
  t.strictSame(uuidV7(ms, new Uint8Array(10).fill(0xff)), '01a210dc-427b-7fff-bfff-ffffffffffff');
  t.match(uuidV7(ms, new Uint8Array(10).fill(0xa5)), V7);
});

t.test('event ids: well-formed, distinct, and in time order across milliseconds', async (t) => {
  const start = Date.parse('2026-11-25T04:00:00Z');
  let now = start;
  const ids = ulidIds({ now: () => new Date(now) });
  const made: string[] = [];
  for (let i = 0; i < 3000; i++) {
    if (i % 100 === 0) now += 1;
    made.push(ids.eventId());
  }
  t.strictSame(
    made.filter((id) => !V7.test(id)),
    [],
    'every id a version 7 UUID',
  );
  t.strictSame(new Set(made).size, made.length, 'no id twice');
  const firstOfEachMs = made.filter((_, i) => i % 100 === 0);
  t.strictSame(firstOfEachMs, [...firstOfEachMs].sort(), 'a later millisecond sorts later');
  t.strictSame(made[0].replace(/-/g, '').slice(0, 12), (start + 1).toString(16).padStart(12, '0'), 'led by the clock time');
});
