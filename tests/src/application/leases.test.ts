import { join } from 'node:path';
import t, { type Test } from 'tap';
import { LeasedWorker, Leases, silentLogger, type Worker } from '@support/application';
import { MemoryBus } from '@support/bus/memory';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { removeDir, tempDir } from '../support/service';

const setup = (t: Test) => {
  const dir = tempDir('leases-');
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await reads.close();
    removeDir(dir);
  });
  let now = 1_000_000;
  const clock = { now: () => new Date(now) };
  return { reads, leases: new Leases(reads, clock, 10_000), advance: (ms: number) => (now += ms) };
};

t.test('a lease has one holder until it expires or is released', async (t) => {
  const { leases, advance } = setup(t);
  const a = await leases.acquire('relay', 'a');
  t.type(a, 'string');
  t.equal(await leases.acquire('relay', 'b'), null, 'held: refused');
  advance(9_999);
  t.equal(await leases.acquire('relay', 'b'), null, 'not yet expired');
  t.equal(await leases.renew('relay', a!), true);
  advance(9_999);
  t.equal(await leases.acquire('relay', 'b'), null, 'renewed: still held');
  advance(2);
  const b = await leases.acquire('relay', 'b');
  t.type(b, 'string', 'expired: taken over');
  t.equal(await leases.renew('relay', a!), false, 'the old holder learns it lost the lease');
  t.equal(await leases.holder('relay'), 'b');
  await leases.release('relay', a!);
  t.equal(await leases.holder('relay'), 'b', 'a stale token releases nothing');
  await leases.release('relay', b!);
  t.equal(await leases.holder('relay'), null);
  t.type(await leases.acquire('relay', 'c'), 'string', 'released: free at once');
});

t.test('a holder that crashed is taken over before its lease expires; a slow one, or one only off the bus, is not', async (t) => {
  const { reads } = setup(t);
  let now = 0;
  const clock = { now: () => new Date(now) };
  const bus = new MemoryBus();
  // Two processes on one read store and one bus: a process's Leases announces its holders.
  const one = new Leases(reads, clock, 10_000, bus);
  const two = new Leases(reads, clock, 10_000, bus);
  const a = await one.acquire('relay', 'a');
  t.type(a, 'string');
  now += 3_751;
  t.equal(await two.acquire('relay', 'b'), null, 'missed a renewal, but present on the bus: only slow');
  t.equal(await one.renew('relay', a!), true);
  await one.close(); // "a" is gone from the bus (a SIGKILLed process's subscriptions go with its connection)
  now += 3_749;
  t.equal(await two.acquire('relay', 'b'), null, 'gone from the bus, but renewed within 3/8 of the TTL: not taken');
  now += 2;
  const b = await two.acquire('relay', 'b');
  t.type(b, 'string', 'gone and a renewal missed: taken over 3.75 s after the last renewal, not 10 s');
  t.equal(await one.renew('relay', a!), false, 'the old holder learns it lost the lease');
  t.equal(await two.holder('relay'), 'b');
  // A process restarted under the same id (a container keeps its hostname and pid 1) takes its leases back at once.
  const restarted = new Leases(reads, clock, 10_000, bus);
  t.type(await restarted.acquire('relay', 'b'), 'string', 'the same holder id: its previous run');
  t.equal(await two.renew('relay', b!), false, 'and the previous run, were it alive, would learn it at once');
  await restarted.close();
  // Without presence (the in-process bus cannot tell of another process), only expiry counts.
  const three = new Leases(reads, clock, 10_000);
  now += 5_000;
  t.equal(await three.acquire('relay', 'c'), null);
  await two.close();
});

const recorder = () => {
  const calls: string[] = [];
  const worker = (name: string): Worker => ({
    start: async () => void calls.push(`start ${name}`),
    stop: async () => void calls.push(`stop ${name}`),
  });
  return { calls, worker };
};

t.test('a leased worker runs in one instance; a standby takes over when it dies', async (t) => {
  const { leases, advance } = setup(t);
  const { calls, worker } = recorder();
  // Rounds are driven by hand (tick) with a clock that only moves when told.
  const first = new LeasedWorker(leases, 'relay', 'one', [worker('one')], silentLogger, 1e9);
  const second = new LeasedWorker(leases, 'relay', 'two', [worker('two')], silentLogger, 1e9);
  t.teardown(async () => {
    await first.stop();
    await second.stop();
  });
  await first.start();
  await second.start();
  t.strictSame(calls, ['start one']);
  t.strictSame([first.leases(), second.leases()], [[{ name: 'relay', role: 'active' }], [{ name: 'relay', role: 'standby' }]]);
  advance(5_000);
  await first.tick(); // renews
  advance(6_000);
  await second.tick();
  t.strictSame(calls, ['start one'], 'renewed in time: the standby waits');
  // "one" stops renewing (a crash): once the lease expires, "two" starts the work.
  advance(10_000);
  await second.tick();
  t.strictSame(calls, ['start one', 'start two']);
  // "one" was only paused: its next round finds the lease taken and stops its copy at once.
  await first.tick();
  t.strictSame(calls, ['start one', 'start two', 'stop one']);
  t.equal(first.active, false);
});

t.test('a clean stop releases the lease: the standby takes over on its next round', async (t) => {
  const { leases } = setup(t);
  const { calls, worker } = recorder();
  const first = new LeasedWorker(leases, 'sla', 'one', [worker('one')], silentLogger, 1e9);
  const second = new LeasedWorker(leases, 'sla', 'two', [worker('two')], silentLogger, 1e9);
  t.teardown(() => second.stop());
  await first.start();
  await second.start();
  await first.stop();
  await second.tick();
  t.strictSame(calls, ['start one', 'stop one', 'start two']);
});

/** Leases whose read store can be cut off: every call fails while `down`. */
class Unreachable extends Leases {
  down = false;
  private check() {
    if (this.down) throw new Error('read store unreachable');
  }
  override async acquire(name: string, holder: string) {
    this.check();
    return super.acquire(name, holder);
  }
  override async renew(name: string, token: string) {
    this.check();
    return super.renew(name, token);
  }
}

t.test('a holder cut off from the read store stops the work once its lease lapses, and takes it back after', async (t) => {
  const { reads } = setup(t);
  let now = 0;
  const leases = new Unreachable(reads, { now: () => new Date(now) }, 10_000);
  const { calls, worker } = recorder();
  const relay = new LeasedWorker(leases, 'relay', 'one', [worker('one')], silentLogger, 1e9);
  t.teardown(() => relay.stop());
  await relay.start();
  now += 5_000;
  await relay.tick(); // renewed: its TTL counts from here
  leases.down = true;
  now += 9_999;
  await relay.tick();
  t.strictSame([calls, relay.leases()], [['start one'], [{ name: 'relay', role: 'active' }]], 'within the renewal’s TTL: still the holder');
  now += 1;
  await relay.tick();
  t.strictSame([calls, relay.leases()], [['start one', 'stop one'], [{ name: 'relay', role: 'standby' }]], 'its TTL over: another may hold it now');
  leases.down = false;
  await relay.tick();
  t.strictSame([calls, relay.leases()], [['start one', 'stop one', 'start one'], [{ name: 'relay', role: 'active' }]], 'the store back: held again');
});
