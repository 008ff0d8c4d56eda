import { join } from 'node:path';
import t from 'tap';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { client } from '../support/client';
import { customerCreated } from '../support/events';
import { admin, adminJson, readStoreOnMongo, removeDir, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { tenant } from '../support/workspace';

// An event the read store cannot apply (the API refuses such bodies, so it is written straight
// into the log): the projector sets it aside after a few identical failures, and everything
// else goes on; the operator sees it in /healthz and deals with it through the admin CLI.

/** Customer metadata SQLite refuses (nested 999 levels: "malformed JSON"), or MongoDB (a key with NUL). */
const poisonMetadata = (): Record<string, unknown> => {
  if (readStoreOnMongo()) return { 'a\u0000b': 1 };
  let m: Record<string, unknown> = {};
  for (let i = 0; i < 999; i++) m = { a: m };
  return m;
};

t.test('a poison event is set aside: writes go on for every workspace, health shows it, the CLI lists, retries and skips it', async (t) => {
  const dir = tempDir('aside-e2e-');
  const svc = await startService(dir, { PROJECTION_SET_ASIDE_AFTER: '3' });
  t.teardown(async () => {
    await svc.stop();
    removeDir(dir);
  });
  const probes = client(svc.baseUrl.replace(/\/v1$/, ''));
  const a = await tenant(svc.baseUrl, dir, { name: 'Poisoned' });
  const b = await tenant(svc.baseUrl, dir, { name: 'Bystander' });

  const log = new SqliteEventStore(join(dir, 'events.sqlite'));
  const created = customerCreated('cus_poison');
  const appended = await log.append(
    'customer-cus_poison',
    [
      {
        ...created,
        data: { ...(created.data as object), workspace_id: a.workspaceId, metadata: poisonMetadata() },
        metadata: { ...created.metadata, workspace_id: a.workspaceId },
      },
    ],
    'no_stream',
  );
  await log.close();
  const position = String(appended.position.commit);
  const id = `customers:${position}`;

  const health = async () => (await probes.get('/healthz')).body as { status: string; consumers: { name: string; status: string; set_aside?: number }[] };
  await until(async () => (await health()).consumers.some((c) => c.set_aside === 1), 20_000, 100, 'the poison event set aside');
  const degraded = await health();
  t.equal(degraded.status, 'degraded', 'an operator notices');
  t.match(
    degraded.consumers.find((c) => c.name === 'projector'),
    { status: 'running', failures: 0, set_aside: 1 },
  );
  t.equal((await probes.get('/readyz')).status, 200, 'the service still serves');

  for (const [ws, email] of [
    [a, 'after@poisoned.io'],
    [b, 'after@bystander.io'],
  ] as const) {
    const made = await ws.api.post('/customers', { email, name: 'After' });
    t.equal(made.status, 201, `a write in ${ws.workspaceId} succeeds`);
    const read = await ws.api.get(`/customers/${made.body.id}`);
    t.strictSame([read.status, read.body.email], [200, email], 'and reads back');
  }

  const listed = await adminJson<{ set_aside: Record<string, unknown>[] }>(dir, 'projections', 'set-aside');
  const record = listed.set_aside[0];
  t.strictSame(listed, {
    set_aside: [
      {
        id,
        read_model: 'customers',
        position,
        stream: 'customer-cus_poison',
        revision: 0,
        event_type: 'customer.created',
        event_id: created.id,
        error: record.error,
        first_failed_at: record.first_failed_at,
        last_failed_at: record.last_failed_at,
        attempts: 5,
        status: 'set_aside',
        skipped_at: null,
      },
    ],
  });
  t.match(record.error, /\S/, 'with the error');
  t.ok(
    svc.output.some((l) => /"level":"error"/.test(l) && l.includes('event set aside') && l.includes('"stream":"customer-cus_poison"')),
    'logged at error level',
  );

  // Retrying while the cause is still there fails, keeps the record and counts the attempt.
  const retried = await admin(dir, 'projections', 'retry', '--id', id, '--json');
  t.equal(retried.code, 1);
  t.equal(retried.stdout, '');
  t.match(retried.stderr, `error: ${id} still cannot be applied: `);
  t.match(await adminJson(dir, 'projections', 'set-aside'), { set_aside: [{ id, attempts: 6, status: 'set_aside' }] });
  const unknown = await admin(dir, 'projections', 'skip', '--id', 'customers:999999', '--json');
  t.strictSame([unknown.code, unknown.stdout, unknown.stderr], [1, '', 'error: no set-aside event customers:999999\n']);

  const skipped = await adminJson<Record<string, unknown>>(dir, 'projections', 'skip', '--id', id);
  t.match(skipped, { id, status: 'skipped', skipped_at: String, attempts: 6 });
  await until(async () => (await health()).status === 'ok', 10_000, 100, 'healthz ok after the skip');
  t.strictSame(await adminJson(dir, 'projections', 'set-aside'), { set_aside: [] }, 'nothing left to deal with');
  t.strictSame(await adminJson(dir, 'projections', 'set-aside', '--all'), { set_aside: [skipped] }, 'the skip is kept as the audit trail');
});
