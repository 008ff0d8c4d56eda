import { join } from 'node:path';
import t, { type Test } from 'tap';
import { Application, loadConfig, silentLogger } from '@support/application';
import { START, upcastingEvents, type NewEvent, type RecordedEvent, type Upcaster } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { CATALOG } from '@support/catalog';
import { TAGS } from '@support/tags';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';

/**
 * Upcasting (docs/operating/upgrading.md). No event type has a second version yet, so the test
 * writes a made-up first version of `tag.created`, `{id, workspace_id, label, colour}` with no
 * `schema_version`, and its upcaster to today's `{id, workspace_id, name, color, is_active}`.
 */
const TAG_V1_TO_V2: Upcaster = {
  type: 'tag.created',
  from: 1,
  up: ({ label, colour, ...rest }) => ({ ...rest, name: label, color: colour ?? null, is_active: true }),
};
const meta = (extra: object = {}) => ({ workspace_id: 'ws_1', actor: 'test', request_id: null, occurred_at: '2026-01-01T00:00:00.000Z', ...extra });
const oldTag = (id: string, label: string): NewEvent => ({
  id: crypto.randomUUID(),
  type: 'tag.created',
  data: { id, workspace_id: 'ws_1', label, colour: '#fff' },
  metadata: meta(),
});
const current = (id: string, name: string): NewEvent => ({
  id: crypto.randomUUID(),
  type: 'tag.created',
  data: { id, workspace_id: 'ws_1', name, color: null, is_active: false },
  metadata: meta({ schema_version: 2 }),
});
/** An embedded log of the test's own, read without upcasting. */
const rawLog = (t: Test): SqliteEventStore => {
  const dir = tempDir('upcast-');
  const raw = new SqliteEventStore(join(dir, 'events.sqlite'));
  t.teardown(async () => {
    await raw.close();
    removeDir(dir);
  });
  return raw;
};
const shapes = (events: RecordedEvent[]) => events.map((e) => [e.data, (e.metadata as { schema_version?: number }).schema_version]);

t.test('every read gives the current version: streams, the log, subscriptions; newer events and the log itself stay as written', async (t) => {
  const raw = rawLog(t);
  await raw.append('tag-tag_1', [oldTag('tag_1', 'billing')], 'no_stream');
  await raw.append('tag-tag_2', [current('tag_2', 'vip')], 'no_stream');
  const store = upcastingEvents(raw, [TAG_V1_TO_V2]);
  const expected = [
    [{ id: 'tag_1', workspace_id: 'ws_1', name: 'billing', color: '#fff', is_active: true }, 2],
    [{ id: 'tag_2', workspace_id: 'ws_1', name: 'vip', color: null, is_active: false }, 2],
  ];
  t.strictSame(shapes([...(await store.readStream('tag-tag_1')), ...(await store.readStream('tag-tag_2'))]), expected, 'readStream');
  t.strictSame(shapes(await store.readAll(START, 10)), expected, 'readAll');
  const [a, b] = [await store.readAll(START, 10), await raw.readAll(START, 10)];
  t.strictSame(
    a.map((e) => [e.id, e.type, e.stream, e.revision, e.position, e.metadata.occurred_at]),
    b.map((e) => [e.id, e.type, e.stream, e.revision, e.position, e.metadata.occurred_at]),
    'everything else as recorded',
  );
  const delivered: RecordedEvent[] = [];
  const sub = store.subscribe(
    START,
    async (batch) => void delivered.push(...batch),
    (err) => t.fail(String(err)),
  );
  await until(async () => delivered.length === 2, 5000, 10, 'both delivered');
  await sub.close();
  t.strictSame(shapes(delivered), expected, 'subscribe');
  t.strictSame(
    (await raw.readStream('tag-tag_1'))[0].data,
    { id: 'tag_1', workspace_id: 'ws_1', label: 'billing', colour: '#fff' },
    'the log is never rewritten',
  );
  t.equal(upcastingEvents(raw, []), raw, 'without upcasters, the store itself');
  // Written after the upgrade: stamped with the current version, so never upcast again.
  const { id, ...fresh } = current('tag_3', 'new');
  await store.append('tag-tag_3', [{ id, ...fresh, metadata: meta() }], 'no_stream');
  t.equal((await raw.readStream('tag-tag_3'))[0].metadata.schema_version, 2, 'an append is stamped with the current version');
  t.strictSame(shapes(await store.readStream('tag-tag_3')), [[{ id: 'tag_3', workspace_id: 'ws_1', name: 'new', color: null, is_active: false }, 2]]);
});

t.test('versions chain, one step each; two upcasters for one version are refused', async (t) => {
  const raw = rawLog(t);
  await raw.append('tag-tag_1', [oldTag('tag_1', 'billing')], 'no_stream');
  const v2ToV3: Upcaster = { type: 'tag.created', from: 2, up: ({ name, ...rest }) => ({ ...rest, name: String(name).toUpperCase() }) };
  const [event] = await upcastingEvents(raw, [v2ToV3, TAG_V1_TO_V2]).readStream('tag-tag_1');
  t.strictSame(shapes([event]), [[{ id: 'tag_1', workspace_id: 'ws_1', color: '#fff', is_active: true, name: 'BILLING' }, 3]]);
  t.throws(() => upcastingEvents(raw, [TAG_V1_TO_V2, TAG_V1_TO_V2]), /two upcasters for tag.created version 1/);
});

t.test("a feature's upcasters reach the projections: an old event in the log is projected in today's shape", async (t) => {
  const dir = tempDir('upcast-app-');
  const config = loadConfig({ DATA_DIR: dir });
  // The old event was written before the upgrade, straight to the log.
  const before = new SqliteEventStore(join(dir, 'events.sqlite'));
  await before.append('tag-tag_01JDQ91NG0TZJEF5Y4BSYFTVJQ', [oldTag('tag_01JDQ91NG0TZJEF5Y4BSYFTVJQ', 'legacy')], 'no_stream');
  await before.close();
  const app = new Application({ catalog: { ...CATALOG, upcasters: [TAG_V1_TO_V2] }, config, log: silentLogger, projector: true });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  await app.settle(await app.engines.events.head());
  const doc = await app.engines.reads
    .collection<{ id: string; name: string; color: string | null; is_active: boolean }>(TAGS)
    .get('tag_01JDQ91NG0TZJEF5Y4BSYFTVJQ');
  t.match(doc, { name: 'legacy', color: '#fff', is_active: true });
});
