import t from 'tap';
import { workspacesOf } from '@support/workspaces';
import { customersOf } from '@support/customers';
import { Application, jsonLogger, LogConsumer, loadConfig, openEngines } from '@support/application';
import type { RecordedEvent } from '@support/eventstore';
import type { Collection, Doc, ReadStore } from '@support/readstore';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';
import { CATALOG } from '@support/catalog';

// Consumers survive faults: an error makes them retry with backoff from their last position
// (never stop), health says so meanwhile, and nothing is lost once the fault clears.

/** A read store whose writes fail while `failing` is set. */
const flaky = (inner: ReadStore) => {
  const state = { failing: false };
  const store: ReadStore = {
    ...inner,
    getCheckpoint: (n) => inner.getCheckpoint(n),
    setCheckpoint: (n, v) => (state.failing ? Promise.reject(new Error('read store unavailable')) : inner.setCheckpoint(n, v)),
    writeBatch: (w, c) => (state.failing ? Promise.reject(new Error('read store unavailable')) : inner.writeBatch(w, c)),
    deleteCheckpoint: (n) => inner.deleteCheckpoint(n),
    close: () => inner.close(),
    collection<T extends Doc>(spec: Parameters<ReadStore['collection']>[0]): Collection<T> {
      const c = inner.collection<T>(spec);
      return {
        name: c.name,
        get: (id) => c.get(id),
        find: (q) => c.find(q),
        getText: (id) => c.getText(id),
        count: (where, atMost) => c.count(where, atMost),
        findText: (q) => c.findText(q),
        delete: (id) => c.delete(id),
        clear: () => c.clear(),
        clearForLoad: () => c.clearForLoad(),
        put: (doc) => (state.failing ? Promise.reject(new Error('read store unavailable')) : c.put(doc)),
        insert: (doc) => (state.failing ? Promise.reject(new Error('read store unavailable')) : c.insert(doc)),
        update: (id, set, where) => (state.failing ? Promise.reject(new Error('read store unavailable')) : c.update(id, set, where)),
        writeMany: (puts, deletes) => (state.failing ? Promise.reject(new Error('read store unavailable')) : c.writeMany(puts, deletes)),
      };
    },
  };
  return { store, state };
};

t.test('the projector retries a failing read store and catches up; health shows it retrying', async (t) => {
  const dir = tempDir('retry-');
  const config = loadConfig({ DATA_DIR: dir });
  const engines = openEngines(config);
  const { store, state } = flaky(engines.reads);
  const lines: string[] = [];
  const app = new Application({
    catalog: CATALOG,
    config,
    log: jsonLogger('info', {}, (l) => lines.push(l)),
    projector: true,
    engines: { ...engines, reads: store },
  });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Retry' });
  const ctx = { workspaceId: workspace.id, actor: 'test', requestId: null };
  t.equal(app.projector!.health()!.status, 'running');

  state.failing = true;
  const written = await Promise.all(Array.from({ length: 5 }, (_, i) => customersOf(app).commands.createOrMatch(ctx, { email: `c${i}@example.com` })));
  await until(async () => app.projector!.health()!.failures >= 2 && app.projector!.health()!.lag_ms > 0, 10_000);
  t.match(app.projector!.health(), { name: 'projector', status: 'retrying', last_error: 'read store unavailable' });
  t.ok(
    lines.some((l) => /consumer failed; retrying/.test(l)),
    'each failure is logged with its backoff',
  );

  state.failing = false;
  const last = written
    .map((w) => w.position)
    .filter((p) => p !== null)
    .pop()!;
  t.equal(await app.settle(last).then(() => true), true);
  await until(async () => app.projector!.health()!.status === 'running', 10_000);
  for (const w of written) t.ok(await customersOf(app).reads.get(workspace.id, w.id), `customer ${w.id} is readable`);
  t.equal(app.projector!.health()!.failures, 0);
  t.strictSame(app.projector!.health()!.lag_ms, 0, 'caught up: no lag');
  // Recovery is good news: one line at info, not a warning an alert would page on.
  const recovered = lines.map((l) => JSON.parse(l) as { level: string; msg: string }).filter((l) => l.msg === 'consumer recovered');
  t.strictSame(
    recovered.map((l) => l.level),
    ['info'],
    'the recovery is logged once, at info',
  );
});

t.test('a log consumer retries a failing batch, then handles every event once, in order', async (t) => {
  const dir = tempDir('retry-');
  const engines = openEngines(loadConfig({ DATA_DIR: dir }));
  t.teardown(async () => {
    await engines.close();
    removeDir(dir);
  });
  const handled: string[] = [];
  let failuresLeft = 3;
  const consumer = new LogConsumer(
    engines.events,
    engines.reads,
    'test-consumer',
    async (e: RecordedEvent) => {
      if ((e.data as { n: number }).n === 2 && failuresLeft > 0) {
        failuresLeft--;
        throw new Error('smtp down');
      }
      handled.push(String((e.data as { n: number }).n));
    },
    jsonLogger('error', {}, () => {}),
  );
  for (let n = 0; n < 5; n++) {
    await engines.events.append(
      `test-${n}`,
      [
        {
          id: `00000000-0000-4000-8000-00000000000${n}`,
          type: 'test.happened',
          data: { n },
          metadata: { workspace_id: null, actor: 'test', request_id: null, occurred_at: new Date(0).toISOString() },
        },
      ],
      'no_stream',
    );
  }
  await consumer.start();
  await until(async () => handled.includes('4'), 10_000);
  await consumer.stop();
  // The batch that failed is delivered again whole: events before the failure inside it repeat.
  t.strictSame([...new Set(handled)], ['0', '1', '2', '3', '4'], 'nothing lost, in order');
  t.equal(failuresLeft, 0, 'it failed three times and went on');
});

const append = async (events: ReturnType<typeof openEngines>['events'], count: number) => {
  for (let n = 0; n < count; n++) {
    await events.append(
      `test-${n}`,
      [
        {
          id: `00000000-0000-4000-8000-00000000000${n}`,
          type: 'test.happened',
          data: { n },
          metadata: { workspace_id: null, actor: 'test', request_id: null, occurred_at: new Date(0).toISOString() },
        },
      ],
      'no_stream',
    );
  }
};

t.test('a consumer that may skip: an event failing the same way N times is logged with its position and skipped', async (t) => {
  const dir = tempDir('poison-');
  const engines = openEngines(loadConfig({ DATA_DIR: dir }));
  t.teardown(async () => {
    await engines.close();
    removeDir(dir);
  });
  const handled: number[] = [];
  const lines: string[] = [];
  let tries = 0;
  const consumer = new LogConsumer(
    engines.events,
    engines.reads,
    'poison-consumer',
    async (e: RecordedEvent) => {
      const { n } = e.data as { n: number };
      if (n === 2) {
        tries++;
        throw new Error('550 mailbox unavailable');
      }
      handled.push(n);
    },
    jsonLogger('info', {}, (l) => lines.push(l)),
    { backoff: { baseMs: 1, maxMs: 5 }, skipPoisonAfter: 3 },
  );
  await append(engines.events, 5);
  await consumer.start();
  await until(async () => handled.includes(4), 10_000);
  t.match(consumer.health(), { status: 'running', skipped: 1 });
  await consumer.stop();
  t.strictSame([...new Set(handled)], [0, 1, 3, 4], 'the rest goes on');
  t.strictSame(tries, 3, 'skipped at the third identical failure');
  const skipped = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'poison event skipped after failing the same way repeatedly');
  t.strictSame(
    skipped.map((l) => [l.consumer, l.position, l.stream, l.revision, l.type, l.failures, l.error]),
    [['poison-consumer', '3', 'test-2', 0, 'test.happened', 3, '550 mailbox unavailable']],
  );
  t.strictSame(await engines.reads.getCheckpoint('poison-consumer'), '5', 'the checkpoint moved past it');
});

t.test('failures that differ are a passing fault, not poison: nothing is skipped', async (t) => {
  const dir = tempDir('poison-');
  const engines = openEngines(loadConfig({ DATA_DIR: dir }));
  t.teardown(async () => {
    await engines.close();
    removeDir(dir);
  });
  const handled: number[] = [];
  const errors = ['connection refused', 'timeout', 'connection refused', 'timeout'];
  const consumer = new LogConsumer(
    engines.events,
    engines.reads,
    'flaky-consumer',
    async (e: RecordedEvent) => {
      const { n } = e.data as { n: number };
      if (n === 1 && errors.length) throw new Error(errors.shift());
      handled.push(n);
    },
    jsonLogger('error', {}, () => {}),
    { backoff: { baseMs: 1, maxMs: 5 }, skipPoisonAfter: 2 },
  );
  await append(engines.events, 3);
  await consumer.start();
  await until(async () => handled.includes(2), 10_000);
  t.strictSame(consumer.health()?.skipped, 0);
  await consumer.stop();
  t.strictSame([...new Set(handled)], [0, 1, 2], 'event 1 was handled once the fault cleared');
});
