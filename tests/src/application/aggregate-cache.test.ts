import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { conversationsOf } from '@support/conversations';
import { Application, loadConfig, silentLogger } from '@support/application';
import { removeDir, tempDir } from '../support/service';
import { CATALOG } from '@support/catalog';

/** An application on a fresh data directory with one workspace, stopped and removed after the test. */
const withWorkspace = async (t: Test, name: string) => {
  const dir = tempDir(`${name.toLowerCase()}-`);
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: false });
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name });
  return { app, workspace };
};

t.test('folded-state cache: a second process writing the same stream is seen', async (t) => {
  const dir = tempDir('cache-');
  // Two applications on one data directory stand for two processes (API and admin CLI, or two APIs).
  const a = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: false });
  const b = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: false });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(a).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Cache' });
  const ctx = { workspaceId: workspace.id, actor: 'key_test', requestId: null };
  const { id } = await conversationsOf(a).commands.create(ctx, {});
  for (let i = 0; i < 50; i++) await conversationsOf(a).commands.postMessage(ctx, id, { content: `m${i}` });
  // B writes behind A's back; A's cached fold must pick it up.
  const fromB = await conversationsOf(b).commands.postMessage(ctx, id, { content: 'from b', client_message_id: 'shared' });
  const again = await conversationsOf(a).commands.postMessage(ctx, id, { content: 'retry via a', client_message_id: 'shared' });
  t.equal(again.id, fromB.id, 'A sees the client_message_id B recorded');
  t.equal(again.created, false);
  await conversationsOf(a).commands.postMessage(ctx, id, { content: 'last' });
  await conversationsOf(b).commands.postMessage(ctx, id, { content: 'b last' });
  const stream = await a.engines.events.readStream(`conversation-${id}`);
  t.equal(stream.length, 1 + 50 + 1 + 2, 'every message is in the stream once');
  t.strictSame(
    stream.map((e) => e.revision),
    stream.map((_, i) => i),
    'revisions without gaps or repeats',
  );
});

t.test('commands on one stream in one process take turns: 30 at once all land, none conflicts', async (t) => {
  const { app, workspace } = await withWorkspace(t, 'Turns');
  const ctx = { workspaceId: workspace.id, actor: 'key_test', requestId: null };
  const { id } = await conversationsOf(app).commands.create(ctx, {});
  // At once, as concurrent requests on a busy conversation: appends are group-committed, so
  // without turns most would be decided on the same state and run out of retries (409).
  const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => conversationsOf(app).commands.postMessage(ctx, id, { content: `m${i}` })));
  t.strictSame(
    results.filter((r) => r.status === 'rejected').map((r) => String(r.reason)),
    [],
    'no conflict',
  );
  t.equal((await app.engines.events.readStream(`conversation-${id}`)).length, 1 + 30, 'every message is in the stream once');
});

t.test('commands that queue up on one stream go in one append; one that breaks a rule fails alone', async (t) => {
  const { app, workspace } = await withWorkspace(t, 'Group');
  const ctx = (n: number) => ({ workspaceId: workspace.id, actor: 'key_test', requestId: `req_${n}` });
  const { id } = await conversationsOf(app).commands.create(ctx(0), {});
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      conversationsOf(app).commands.postMessage(ctx(i), id, {
        content: i === 7 ? '   ' : `m${i}`,
        client_message_id: i === 20 || i === 21 ? 'twice' : undefined,
      }),
    ),
  );
  t.strictSame(
    results.flatMap((r, i) => (r.status === 'rejected' ? [i] : [])),
    [7],
    'only the blank message is refused',
  );
  const outcomes = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const positions = new Set(outcomes.map((o) => String(o.position?.commit)));
  t.ok(positions.size <= 3, `30 commands in ${positions.size} appends`);
  const [first, second] = [outcomes[19], outcomes[20]];
  t.strictSame(
    { id: second.id, created: second.created },
    { id: first.id, created: false },
    'in one turn, the second use of a client_message_id sees the first',
  );
  const stream = await app.engines.events.readStream(`conversation-${id}`);
  t.equal(stream.length, 1 + 28, 'every other message is in the stream once');
  t.strictSame(
    stream.slice(1).map((e) => (e.metadata as { request_id: string }).request_id),
    Array.from({ length: 30 }, (_, i) => `req_${i}`).filter((r) => r !== 'req_7' && r !== 'req_21'),
    'in order, each event with its own request id',
  );
});
