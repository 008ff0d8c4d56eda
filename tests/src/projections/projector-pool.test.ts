import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type Clock, Leases, ProjectorPool, silentLogger } from '@support/application';
import { type Position } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { CHECKPOINT, CheckpointWatch, readModelCheckpoint } from '@support/projections';
import { CUSTOMERS } from '@support/customers';
import { MemoryBus } from '@support/bus/memory';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { customerCreated, tagCreated } from '../support/events';
import { removeDir, tempDir } from '../support/service';
import { until, within } from '../support/wait';
import { ALL_PROJECTIONS } from '@support/catalog';
import { TAGS } from '@support/tags';

const ALL = ALL_PROJECTIONS.map((p) => p.collection.name).sort();

/**
 * Two projector processes, "a" and "b", on one log and read store (in a folder of their own), each
 * with the Leases `leasesOf` gives it; rounds are driven by hand (tick) with a clock that only
 * moves when told (`advance`).
 */
const twoProjectors = (t: Test, prefix: string, leasesOf: (reads: SqliteReadStore, clock: Clock) => (holder: string) => Leases) => {
  const dir = tempDir(prefix);
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  let now = 1_000_000;
  const clock = { now: () => new Date(now) };
  const signals: string[] = [];
  const leases = leasesOf(reads, clock);
  const pool = (holder: string) =>
    new ProjectorPool(
      { events, reads, leases: leases(holder), clock, log: silentLogger, onCheckpoint: (c) => void signals.push(c) },
      ALL_PROJECTIONS,
      holder,
      1e9,
    );
  const a = pool('a');
  const b = pool('b');
  t.teardown(async () => {
    await a.stop();
    await b.stop();
    await events.close();
    await reads.close();
    removeDir(dir);
  });
  return { events, reads, a, b, signals, now: () => now, advance: (ms: number) => (now += ms) };
};

t.test('projectors share the read models out, and take over a dead one’s', async (t) => {
  const shared = (reads: SqliteReadStore, clock: Clock) => {
    const leases = new Leases(reads, clock, 10_000);
    return () => leases;
  };
  const { events, reads, a, b, signals, now, advance } = twoProjectors(t, 'pool-', shared);

  await a.start();
  t.strictSame(a.owned, ALL, 'alone: every read model');
  await b.start();
  t.strictSame(b.owned, [], 'all are held: the newcomer waits for its share');
  await a.tick();
  t.equal(a.owned.length, 6, 'two live instances: a gives back what exceeds its share');
  await b.tick();
  t.equal(b.owned.length, 6);
  t.strictSame([...a.owned, ...b.owned].sort(), ALL, 'each read model applied by exactly one of them');

  await events.append('customer-cus_1', [customerCreated('cus_1')], 'no_stream');
  await events.append('tag-tag_1', [tagCreated('tag_1')], 'no_stream');
  await until(async () => (await reads.collection(CUSTOMERS).get('cus_1')) !== null && (await reads.collection(TAGS).get('tag_1')) !== null);
  const head = await events.head();
  await until(
    async () => {
      const saved = await Promise.all(ALL.map((n) => reads.getCheckpoint(readModelCheckpoint(n))));
      return saved.every((s) => s === `${head.commit}`);
    },
    10_000,
    20,
    'every read model checkpoint at the head',
  );
  t.ok(signals.includes(readModelCheckpoint(CUSTOMERS.name)), 'each batch is signalled with its checkpoint');

  // "a" dies (no more rounds). Once its heartbeat and leases expire, "b" holds them all.
  advance(10_001);
  await b.tick();
  t.strictSame(b.owned, ALL, 'the survivor took over every read model');
  await events.append('customer-cus_2', [customerCreated('cus_2')], 'no_stream');
  await until(async () => (await reads.collection(CUSTOMERS).get('cus_2')) !== null, 10_000, 20, 'the taken-over read model is applied');
  // "a" was only paused: its next round finds its leases gone and stops its projectors.
  await a.tick();
  t.strictSame(a.owned, []);
  await a.stop();
  // An instance gone for ten lease lifetimes is forgotten (each run has an id of its own).
  const members = reads.collection({ name: 'projector_members' });
  await members.put({ id: 'gone', expires_at: now() - 1 });
  await b.tick();
  t.ok(await members.get('gone'), 'recently gone: still known');
  advance(10 * 10_000 + 1);
  await b.tick();
  t.strictSame(
    (await members.find({})).items.map((m) => m.id),
    ['b'],
  );
});

t.test('a crashed projector’s read models move at its successor’s first round after a missed renewal', async (t) => {
  // Each process has its Leases (which answer for its holders on the bus).
  const bus = new MemoryBus();
  const perProcess = new Map<string, Leases>();
  const own = (reads: SqliteReadStore, clock: Clock) => (holder: string) => {
    perProcess.set(holder, new Leases(reads, clock, 10_000, bus));
    return perProcess.get(holder)!;
  };
  const { a, b, advance } = twoProjectors(t, 'pool-crash-', own);
  t.teardown(() => perProcess.get('b')!.close());
  await a.start();
  await b.start();
  t.strictSame([a.owned, b.owned], [ALL, []]);
  await perProcess.get('a')!.close(); // "a" is gone from the bus, as a SIGKILLed process is
  advance(3_000);
  await b.tick();
  t.strictSame(b.owned, [], 'renewed 3 s ago: maybe only slow, not taken');
  advance(800);
  await b.tick();
  t.strictSame(b.owned, ALL, 'a renewal missed and gone from the bus: every read model, not half (the dead member is not counted live)');
});

t.test('a projector cut off from the read store’s leases stops its read models once their leases lapse', async (t) => {
  // The leases' collection unreachable (every renewal and grant fails) while `down`.
  let down = false;
  const unreachable = (reads: SqliteReadStore, clock: Clock) => {
    const leases = new Leases(reads, clock, 10_000);
    const fail = () => Promise.reject(new Error('read store unreachable'));
    const renew = leases.renew.bind(leases);
    const acquire = leases.acquire.bind(leases);
    leases.renew = (name, token) => (down ? fail() : renew(name, token));
    leases.acquire = (name, holder) => (down ? fail() : acquire(name, holder));
    return () => leases;
  };
  const { a, advance } = twoProjectors(t, 'pool-lapse-', unreachable);
  await a.start();
  t.strictSame(a.owned, ALL);
  advance(5_000);
  await a.tick(); // renewed: their TTL counts from here
  down = true;
  advance(9_999);
  await a.tick();
  t.strictSame(a.owned, ALL, 'within the renewal’s TTL: still applied here');
  advance(1);
  await a.tick();
  t.strictSame([a.owned, a.leases().filter((l) => l.role === 'active')], [[], []], 'the TTL over: another projector may apply them now');
  down = false;
  await a.tick();
  t.strictSame(a.owned, ALL, 'the store back: taken again');
});

t.test('an API process waits on the projectors’ signals, and polls only as a fallback', async (t) => {
  const dir = tempDir('watch-');
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await reads.close();
    removeDir(dir);
  });
  const perModel = ALL.map(readModelCheckpoint);
  const at = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });

  const signalled = new CheckpointWatch(reads, [[CHECKPOINT], perModel], 1e9);
  const waiting = signalled.waitFor(at(5), 60_000);
  for (const c of perModel.slice(1)) signalled.heard(c, at(5));
  signalled.heard(perModel[0], at(4));
  t.equal(await Promise.race([waiting, Promise.resolve('still waiting')]), 'still waiting', 'one read model is behind');
  signalled.heard(perModel[0], at(7));
  t.equal(await within(waiting, 5_000), true, 'woken by the last signal, with no poll');
  t.equal(signalled.polls, 0);
  t.equal(await signalled.waitFor(at(5), 0), true, 'known: answered at once');
  t.equal(await signalled.waitFor(at(6), 0), false, 'the slowest read model decides');
  signalled.heard(CHECKPOINT, at(9));
  t.equal(await signalled.waitFor(at(9), 0), true, 'or the one projector that keeps them all');

  // No signals (the bus is down): the saved checkpoints are read every pollMs meanwhile.
  const polled = new CheckpointWatch(reads, [[CHECKPOINT], perModel], 20);
  const late = polled.waitFor(at(3), 60_000);
  await reads.setCheckpoint(CHECKPOINT, '3');
  t.equal(await within(late, 5_000), true);
  t.ok(polled.polls >= 1);
  t.equal(await polled.waitFor(at(4), 100), false, 'bounded: never reached answers false');
});
