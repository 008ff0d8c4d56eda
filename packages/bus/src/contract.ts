import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import { Bus, BusMessage } from './port';

/** Waits for a condition; the deadline only turns "never" into a failure (10 s: NATS may be slow to start). */
const waitFor = async (cond: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/**
 * The behaviour every bus adapter must show; subjects and durables get fresh random names.
 * Durable messages use subjects under `ct.`, signals under `sig.` (outside the durable ones).
 * "Nothing more arrives" is asserted after a marker published last has arrived: a subscriber
 * gets a durable's messages in order, so whatever would have come before it has.
 */
export const busContract = (t: Test, open: () => Promise<Bus>) => {
  let bus: Bus;
  const unique = () => randomBytes(4).toString('hex');
  t.before(async () => {
    bus = await open();
  });
  t.teardown(async () => {
    await bus.close();
  });

  t.test('delivers matching subjects, dropping duplicate ids', async (t) => {
    const root = `ct.${unique()}`;
    const got: BusMessage[] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.*.x.>` }, async (m) => {
      got.push(m);
      await m.ack();
    });
    await bus.publish(`${root}.a.x.1`, 'm1', { n: 1 });
    await bus.publish(`${root}.a.x.1`, 'm1', { n: 1 });
    await bus.publish(`${root}.a.y.1`, 'm2', { n: 2 });
    await bus.publish(`${root}.b.x.2.3`, 'm3', { n: 3 });
    await bus.publish(`${root}.a.x.end`, `${root}-marker`, null);
    await waitFor(() => got.some((m) => m.id === `${root}-marker`));
    t.strictSame(
      got.map((m) => [m.id, m.subject, m.data, m.deliveryCount]),
      [
        ['m1', `${root}.a.x.1`, { n: 1 }, 1],
        ['m3', `${root}.b.x.2.3`, { n: 3 }, 1],
        [`${root}-marker`, `${root}.a.x.end`, null, 1],
      ],
    );
    await sub.close();
  });

  t.test('competing consumers share a durable: each message handled once', async (t) => {
    const root = `ct.${unique()}`;
    const durable = `d${unique()}`;
    const byA: string[] = [];
    const byB: string[] = [];
    // A handler that takes a moment, so that both subscribers are busy at once.
    const handle = (into: string[]) => async (m: BusMessage) => {
      into.push(m.id);
      await new Promise((r) => setTimeout(r, 5));
      await m.ack();
    };
    const a = await bus.consume({ durable, subject: `${root}.>` }, handle(byA));
    const b = await bus.consume({ durable, subject: `${root}.>` }, handle(byB));
    const sent = Array.from({ length: 20 }, (_, i) => `${root}-${i}`);
    for (const [i, id] of sent.entries()) await bus.publish(`${root}.e`, id, i);
    // Markers until each subscriber has one: then each has had everything sent before.
    const isMarker = (id: string) => id.startsWith('marker-');
    for (let i = 0; !(byA.some(isMarker) && byB.some(isMarker)); i++) {
      await bus.publish(`${root}.e`, `marker-${root}-${i}`, null);
      await waitFor(() => [...byA, ...byB].includes(`marker-${root}-${i}`));
    }
    t.strictSame([...byA, ...byB].filter((id) => !isMarker(id)).sort(), [...sent].sort(), 'each message once');
    t.ok(byA.some((id) => !isMarker(id)) && byB.some((id) => !isMarker(id)), 'both consumers got work');
    await a.close();
    await b.close();
  });

  t.test('nak with a delay redelivers; term does not', async (t) => {
    const root = `ct.${unique()}`;
    const got: [string, number][] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.>` }, async (m) => {
      got.push([m.id, m.deliveryCount]);
      if (m.id === 'retry' && m.deliveryCount === 1) await m.nak(100);
      else if (m.id === 'drop') await m.term();
      else await m.ack();
    });
    await bus.publish(`${root}.e`, 'retry', {});
    await bus.publish(`${root}.e`, 'drop', {});
    await waitFor(() => got.some(([id, n]) => id === 'retry' && n === 2));
    // Ids are deduplicated across the bus: each marker's is unique.
    await bus.publish(`${root}.e`, `${root}-marker`, {});
    await waitFor(() => got.some(([id]) => id === `${root}-marker`));
    t.strictSame(
      got.filter(([id]) => id === 'drop'),
      [['drop', 1]],
    );
    t.strictSame(
      got.filter(([id]) => id === 'retry'),
      [
        ['retry', 1],
        ['retry', 2],
      ],
    );
    await sub.close();
  });

  t.test('an unacknowledged message comes back after the ack wait', async (t) => {
    const root = `ct.${unique()}`;
    const counts: number[] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.>`, ackWaitMs: 1000 }, async (m) => {
      counts.push(m.deliveryCount);
      if (m.deliveryCount > 1) await m.ack();
    });
    await bus.publish(`${root}.e`, 'slow', {});
    await waitFor(() => counts.length >= 2);
    t.strictSame(counts, [1, 2]);
    await sub.close();
  });

  t.test('a durable keeps messages published while no subscriber is attached', async (t) => {
    const root = `ct.${unique()}`;
    const durable = `d${unique()}`;
    // Each entry names the subscriber that got it: one that reached the closed subscriber shows.
    const got: string[] = [];
    const handler = (by: string) => async (m: BusMessage) => {
      got.push(`${by}:${m.id}`);
      await m.ack();
    };
    const first = await bus.consume({ durable, subject: `${root}.>` }, handler('first'));
    await bus.publish(`${root}.e`, 'one', {});
    await waitFor(() => got.length === 1);
    await first.close();
    await bus.publish(`${root}.e`, 'two', {});
    const second = await bus.consume({ durable, subject: `${root}.>` }, handler('second'));
    await bus.publish(`${root}.e`, `${root}-marker`, {});
    await waitFor(() => got.some((g) => g.endsWith(`:${root}-marker`)));
    t.strictSame(got, ['first:one', 'second:two', `second:${root}-marker`]);
    await second.close();
  });

  t.test('signals reach every listener attached, and nobody after it closed', async (t) => {
    const root = `sig.${unique()}`;
    const a: unknown[] = [];
    const b: unknown[] = [];
    const first = await bus.listen(`${root}.>`, (d) => a.push(d));
    const second = await bus.listen(`${root}.x`, (d) => b.push(d));
    await bus.signal(`${root}.x`, { n: 1 });
    await bus.signal(`${root}.y`, { n: 2 });
    await waitFor(() => a.length === 2 && b.length === 1);
    await first.close();
    await bus.signal(`${root}.x`, { n: 3 });
    await waitFor(() => b.length === 2);
    t.strictSame(a, [{ n: 1 }, { n: 2 }], 'the closed listener got nothing more (b saw the last signal after it)');
    t.strictSame(b, [{ n: 1 }, { n: 3 }]);
    await second.close();
  });

  t.test('a signal sent while nobody listens is gone', async (t) => {
    const root = `sig.${unique()}`;
    await bus.signal(`${root}.x`, { early: true });
    const got: unknown[] = [];
    const l = await bus.listen(`${root}.x`, (d) => got.push(d));
    await bus.signal(`${root}.x`, { late: true });
    await waitFor(() => got.length === 1);
    t.strictSame(got, [{ late: true }]);
    await l.close();
  });

  t.test('a new durable gets the history the bus says it keeps (durable), and nothing else', async (t) => {
    const root = `ct.${unique()}`;
    await bus.publish(`${root}.e`, `${root}-early`, {});
    const got: string[] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.>` }, async (m) => {
      got.push(m.id);
      await m.ack();
    });
    await bus.publish(`${root}.e`, `${root}-marker`, {});
    await waitFor(() => got.includes(`${root}-marker`));
    t.strictSame(got, bus.durable ? [`${root}-early`, `${root}-marker`] : [`${root}-marker`]);
    await sub.close();
  });

  t.test('presence: an instance is gone once no announcement of it is open', async (t) => {
    const instance = `host-${unique()}:42`;
    const first = await bus.announce(instance);
    const second = await bus.announce(instance);
    t.strictSame(await bus.gone(instance), false, 'announced twice');
    await first.close();
    t.strictSame(await bus.gone(instance), false, 'one announcement still open');
    await second.close();
    t.strictSame(await bus.gone(instance), true, 'every announcement closed');
    // Somebody else's instance: a shared bus knows nobody answers; the in-process one cannot tell.
    t.strictSame(await bus.gone(`host-${unique()}:7`), bus.shared);
  });
};
