import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import { Bus, BusMessage } from './port';

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The behaviour every bus adapter must show; subjects and durables get fresh random names. */
export const busContract = (t: Test, open: () => Promise<Bus>) => {
  let bus: Bus;
  const unique = () => randomBytes(4).toString('hex');
  t.before(async () => { bus = await open(); });
  t.teardown(async () => { await bus.close(); });

  t.test('delivers matching subjects, dropping duplicate ids', async (t) => {
    const root = `ct${unique()}`;
    const got: BusMessage[] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.*.x.>` }, async (m) => { got.push(m); await m.ack(); });
    await bus.publish(`${root}.a.x.1`, 'm1', { n: 1 });
    await bus.publish(`${root}.a.x.1`, 'm1', { n: 1 });
    await bus.publish(`${root}.a.y.1`, 'm2', { n: 2 });
    await bus.publish(`${root}.b.x.2.3`, 'm3', { n: 3 });
    await waitFor(() => got.length >= 2);
    await idle(200);
    t.same(got.map((m) => [m.id, m.subject, m.data, m.deliveryCount]), [['m1', `${root}.a.x.1`, { n: 1 }, 1], ['m3', `${root}.b.x.2.3`, { n: 3 }, 1]]);
    await sub.close();
  });

  t.test('competing consumers share a durable: each message handled once', async (t) => {
    const root = `ct${unique()}`;
    const durable = `d${unique()}`;
    const byA: string[] = [];
    const byB: string[] = [];
    const a = await bus.consume({ durable, subject: `${root}.>` }, async (m) => { byA.push(m.id); await idle(5); await m.ack(); });
    const b = await bus.consume({ durable, subject: `${root}.>` }, async (m) => { byB.push(m.id); await idle(5); await m.ack(); });
    for (let i = 0; i < 20; i++) await bus.publish(`${root}.e`, `${root}-${i}`, i);
    await waitFor(() => byA.length + byB.length >= 20);
    await idle(200);
    t.equal(byA.length + byB.length, 20);
    t.equal(new Set([...byA, ...byB]).size, 20, 'no message twice');
    t.ok(byA.length > 0 && byB.length > 0, 'both consumers got work');
    await a.close();
    await b.close();
  });

  t.test('nak with a delay redelivers; term does not', async (t) => {
    const root = `ct${unique()}`;
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
    await idle(300);
    t.same(got.filter(([id]) => id === 'drop'), [['drop', 1]]);
    t.same(got.filter(([id]) => id === 'retry'), [['retry', 1], ['retry', 2]]);
    await sub.close();
  });

  t.test('an unacknowledged message comes back after the ack wait', async (t) => {
    const root = `ct${unique()}`;
    const counts: number[] = [];
    const sub = await bus.consume({ durable: `d${unique()}`, subject: `${root}.>`, ackWaitMs: 1000 }, async (m) => {
      counts.push(m.deliveryCount);
      if (m.deliveryCount > 1) await m.ack();
    });
    await bus.publish(`${root}.e`, 'slow', {});
    await waitFor(() => counts.length >= 2, 8000);
    t.same(counts, [1, 2]);
    await sub.close();
  });

  t.test('a durable keeps messages published while no subscriber is attached', async (t) => {
    const root = `ct${unique()}`;
    const durable = `d${unique()}`;
    const got: string[] = [];
    const first = await bus.consume({ durable, subject: `${root}.>` }, async (m) => { got.push(m.id); await m.ack(); });
    await bus.publish(`${root}.e`, 'one', {});
    await waitFor(() => got.length === 1);
    await first.close();
    await bus.publish(`${root}.e`, 'two', {});
    await idle(100);
    const second = await bus.consume({ durable, subject: `${root}.>` }, async (m) => { got.push(m.id); await m.ack(); });
    await waitFor(() => got.length === 2);
    t.same(got, ['one', 'two']);
    await second.close();
  });
};
