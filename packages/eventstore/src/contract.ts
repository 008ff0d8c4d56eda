import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { EventStore, NewEvent, PartialAppendError, RecordedEvent, WrongExpectedRevisionError } from './port';
import { comparePositions, START } from './position';

const event = (type: string, data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { workspace_id: 'ws_contract', actor: 'system', request_id: null, occurred_at: new Date(0).toISOString() },
});

/**
 * The behaviour every event store adapter must show. `open` gives a store on fresh or shared
 * data; the suite uses unique stream names and the current head so it can run on a live server.
 */
export const eventStoreContract = (t: Test, open: () => Promise<EventStore>) => {
  let store: EventStore;
  const stream = (name: string) => `contract-${name}${randomUUID().replace(/-/g, '')}`;
  t.before(async () => {
    store = await open();
  });
  t.teardown(async () => {
    await store.close();
  });

  t.test('appends to a new stream and reads it back in order', async (t) => {
    const s = stream('a');
    const r = await store.append(s, [event('x.one', { n: 1 }), event('x.two', { n: 2 })], 'no_stream');
    t.equal(r.revision, 1);
    const read = await store.readStream(s);
    t.strictSame(
      read.map((e) => [e.type, e.revision, e.data]),
      [
        ['x.one', 0, { n: 1 }],
        ['x.two', 1, { n: 2 }],
      ],
    );
    t.equal(read[0].metadata.workspace_id, 'ws_contract');
    t.equal(read[0].stream, s);
    t.ok(comparePositions(read[0].position, read[1].position) < 0, 'positions grow');
    t.equal(comparePositions(read[1].position, r.position), 0, 'append returns the last position');
  });

  t.test('a stream reads from a revision', async (t) => {
    const s = stream('from');
    await store.append(s, [event('x.0'), event('x.1'), event('x.2')], 'no_stream');
    t.strictSame(
      (await store.readStream(s, 1)).map((e) => e.type),
      ['x.1', 'x.2'],
    );
    t.strictSame(
      (await store.readStream(s, 3)).map((e) => e.type),
      [],
    );
  });

  t.test('an unknown stream reads as empty', async (t) => {
    t.strictSame(await store.readStream(stream('none')), []);
  });

  t.test('expected revisions are enforced', async (t) => {
    const s = stream('b');
    await store.append(s, [event('x.one')], 'no_stream');
    await t.rejects(store.append(s, [event('x.two')], 'no_stream'), WrongExpectedRevisionError);
    await t.rejects(store.append(s, [event('x.two')], 5), WrongExpectedRevisionError);
    await t.rejects(store.append(stream('c'), [event('x.one')], 0), WrongExpectedRevisionError);
    t.equal((await store.append(s, [event('x.two')], 0)).revision, 1);
    t.equal((await store.append(s, [event('x.three')], 'any')).revision, 2);
    t.equal((await store.readStream(s)).length, 3);
  });

  t.test('of two concurrent appends at one revision, exactly one wins', async (t) => {
    const s = stream('race');
    await store.append(s, [event('x.one')], 'no_stream');
    const results = await Promise.allSettled([store.append(s, [event('x.a')], 0), store.append(s, [event('x.b')], 0)]);
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    t.type(rejected.reason, WrongExpectedRevisionError);
    t.equal((await store.readStream(s)).length, 2);
  });

  t.test('concurrent appends: a conflict fails only its own append', async (t) => {
    const hot = stream('hot');
    const other = stream('other');
    await store.append(hot, [event('x.0')], 'no_stream');
    // Sent at once, as concurrent requests do (the SQLite store commits them as one group).
    const results = await Promise.allSettled([
      store.append(hot, [event('x.a')], 0),
      store.append(other, [event('y.0'), event('y.1')], 'no_stream'),
      store.append(hot, [event('x.b')], 0),
    ]);
    t.strictSame(
      results.map((r) => r.status),
      results[0].status === 'fulfilled' ? ['fulfilled', 'fulfilled', 'rejected'] : ['rejected', 'fulfilled', 'fulfilled'],
      'one of the two at revision 0 wins; the other stream is not affected',
    );
    t.type(results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason, WrongExpectedRevisionError);
    t.equal((await store.readStream(hot)).length, 2);
    t.strictSame(
      (await store.readStream(other)).map((e) => e.type),
      ['y.0', 'y.1'],
    );
  });

  t.test('appendMany appends to several streams in order, each at its own revision', async (t) => {
    const a = stream('many-a');
    const b = stream('many-b');
    await store.append(a, [event('x.0')], 'no_stream');
    const results = await store.appendMany([
      { stream: a, events: [event('x.1'), event('x.2')], expected: 0 },
      { stream: b, events: [event('y.0')], expected: 'no_stream' },
    ]);
    t.strictSame(
      results.map((r) => r.revision),
      [2, 0],
    );
    t.ok(comparePositions(results[0].position, results[1].position) < 0, 'in the order given');
    const [last] = (await store.readStream(b)).map((e) => e.position);
    t.equal(comparePositions(last, results[1].position), 0, 'each result names its last position');
    t.strictSame(
      (await store.readStream(a)).map((e) => e.type),
      ['x.0', 'x.1', 'x.2'],
    );
    await t.rejects(store.appendMany([]), /at least one event/);
    await t.rejects(store.appendMany([{ stream: stream('many-c'), events: [], expected: 'any' }]), /at least one event/);
  });

  t.test('appendMany stops at a wrong expected revision: nothing after it, and what stayed before it named', async (t) => {
    const first = stream('many-first');
    const taken = stream('many-taken');
    const after = stream('many-after');
    await store.append(taken, [event('x.0')], 'no_stream');
    const err = await store
      .appendMany([
        { stream: first, events: [event('a.0')], expected: 'no_stream' },
        { stream: taken, events: [event('x.1')], expected: 'no_stream' },
        { stream: after, events: [event('c.0')], expected: 'no_stream' },
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    // All or none (one transaction), or the appends before the failure written and named.
    const written = err instanceof PartialAppendError ? err.written.length : 0;
    t.type(err instanceof PartialAppendError ? err.failure : err, WrongExpectedRevisionError);
    t.strictSame(
      (await store.readStream(first)).map((e) => e.type),
      written === 1 ? ['a.0'] : [],
    );
    t.equal((await store.readStream(taken)).length, 1);
    t.strictSame(await store.readStream(after), [], 'nothing after the failure');
  });

  t.test('readAll pages through the global log after a position', async (t) => {
    const from = await store.head();
    const s = stream('all');
    await store.append(s, [event('x.1'), event('x.2'), event('x.3')], 'no_stream');
    const page1 = await store.readAll(from, 2);
    t.strictSame(
      page1.map((e) => e.type),
      ['x.1', 'x.2'],
    );
    const page2 = await store.readAll(page1[1].position, 10);
    t.strictSame(
      page2.map((e) => e.type),
      ['x.3'],
    );
    t.equal(comparePositions(await store.head(), page2[0].position), 0, 'head is the newest event');
    t.ok((await store.readAll(START, 1)).length === 1, 'START reads from the beginning');
  });

  t.test('readAll of some types skips the others, and reads nothing for none', async (t) => {
    const from = await store.head();
    const tag = randomUUID().slice(0, 8);
    await store.append(stream('typed'), [event(`t.a${tag}`), event(`t.b${tag}`), event(`t.c${tag}`), event(`t.a${tag}`)], 'no_stream');
    const page1 = await store.readAll(from, 2, [`t.a${tag}`, `t.c${tag}`]);
    t.strictSame(
      page1.map((e) => e.type),
      [`t.a${tag}`, `t.c${tag}`],
    );
    const page2 = await store.readAll(page1[1].position, 10, [`t.a${tag}`, `t.c${tag}`]);
    t.strictSame(
      page2.map((e) => [e.type, e.revision]),
      [[`t.a${tag}`, 3]],
    );
    t.strictSame(await store.readAll(from, 10, []), [], 'no types: nothing');
  });

  t.test('countByType counts the events of each type, or is null where the engine cannot', async (t) => {
    const before = await store.countByType();
    const tag = randomUUID().slice(0, 8);
    await store.append(stream('count'), [event(`count.a${tag}`), event(`count.b${tag}`), event(`count.a${tag}`)], 'no_stream');
    const after = await store.countByType();
    if (before === null || after === null) {
      t.strictSame([before, after], [null, null], 'null both times');
      return;
    }
    t.strictSame([after[`count.a${tag}`], after[`count.b${tag}`]], [2, 1]);
    t.strictSame(
      Object.values(after).reduce((a, b) => a + b, 0),
      Object.values(before).reduce((a, b) => a + b, 0) + 3,
      'nothing else counted',
    );
  });

  t.test('subscribe delivers what exists after the position, then what comes later', async (t) => {
    const from = await store.head();
    const s = stream('sub');
    await store.append(s, [event('x.before')], 'no_stream');
    const seen: RecordedEvent[] = [];
    let notify: () => void = () => {};
    const sub = store.subscribe(
      from,
      async (batch) => {
        seen.push(...batch.filter((e) => e.stream === s));
        notify();
      },
      (err) => t.fail(String(err)),
    );
    const until = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`saw ${seen.length} of ${n} events`)), 5000);
        notify = () => {
          if (seen.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        notify();
      });
    await until(1);
    await store.append(s, [event('x.after')], 0);
    await until(2);
    await sub.close();
    // A witness subscribed before the next append: once it has that event, a subscription that
    // close() left listening would have it as well (no sleeping on "nothing happens"). That
    // close() waits for the loop to end is the SQLite adapter's own test.
    const witnessed: string[] = [];
    const witness = store.subscribe(
      await store.head(),
      async (batch) => {
        witnessed.push(...batch.filter((e) => e.stream === s).map((e) => e.type));
      },
      (err) => t.fail(String(err)),
    );
    await store.append(s, [event('x.closed')], 1);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const check = () =>
        witnessed.length > 0 ? resolve() : Date.now() > deadline ? reject(new Error('the witness never saw x.closed')) : setTimeout(check, 10);
      check();
    });
    await witness.close();
    t.strictSame(witnessed, ['x.closed']);
    t.strictSame(
      seen.map((e) => e.type),
      ['x.before', 'x.after'],
      'nothing after close',
    );
  });
};
