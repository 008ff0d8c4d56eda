import t from 'tap';
import { BusIntakeHealth } from '@support/dispatcher/dist/bus-intake-health';
import type { RecordedEvent } from '@support/eventstore';

// The dispatcher's intake from the bus reports as a log consumer does: retrying while it fails,
// behind by the age of the oldest event not yet taken in, caught up once they are.

const event = (n: number, occurredAt: number): RecordedEvent => ({
  id: `ev-${n}`,
  type: 'customer.created',
  data: {},
  stream: `customer-${n}`,
  revision: 0,
  position: { commit: BigInt(n), prepare: BigInt(n) },
  metadata: { workspace_id: 'ws_1', actor: 'key_1', request_id: null, occurred_at: new Date(occurredAt).toISOString() },
});

t.test('running, retrying while intake fails (behind by the failing event), running and caught up after', async (t) => {
  let now = 10_000;
  const health = new BusIntakeHealth(() => now);
  t.match(health.health(), { name: 'dispatcher', status: 'stopped' }, 'not started');
  health.started();
  health.received(event(1, 9_000));
  now = 10_500;
  t.match(health.health(), { status: 'running', lag_ms: 1_500 }, 'taking one in');
  health.handled(event(1, 9_000));
  t.match(health.health(), { status: 'running', lag_ms: 0, handled_total: 1, position: '1' });
  health.received(event(2, 10_000));
  health.failed(event(2, 10_000), new Error('read store unavailable'));
  now = 70_000;
  t.strictSame(health.health(), {
    name: 'dispatcher',
    status: 'retrying',
    failures: 1,
    failures_total: 1,
    handled_total: 1,
    last_error: 'read store unavailable',
    position: '1',
    lag_ms: 60_000,
  });
  health.received(event(2, 10_000));
  health.handled(event(2, 10_000));
  t.match(health.health(), { status: 'running', failures: 0, failures_total: 1, lag_ms: 0, position: '2' }, 'caught up');
  health.received(event(0, 9_500));
  health.handled(event(0, 9_500));
  t.match(health.health(), { position: '2', handled_total: 3 }, 'an earlier event finishing later does not move the position back');
  health.stopped();
  t.match(health.health(), { status: 'stopped' });
});
