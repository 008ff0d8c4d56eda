import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import t from 'tap';
import { client, type Client } from '../support/client';
import { admin, readStoreEnv, readStoreOnMongo, removeDir, replayEvents, startService, tempDir } from '../support/service';
import { tenant } from '../support/workspace';

/** What the API shows of the read models a rebuild makes again. */
const snapshot = async (api: Client) => {
  const conversations = (await api.get('/conversations?limit=100')).body;
  const messages = [];
  for (const c of conversations.data) messages.push((await api.get(`/conversations/${c.id}/messages?limit=100`)).body);
  return {
    customers: (await api.get('/customers?limit=100')).body,
    conversations,
    messages,
    tags: (await api.get('/tags')).body,
    me: (await api.get('/me')).body,
  };
};

/** The read store lost: read models, checkpoints and all (the log is the source of truth). */
const dropReadStore = async (dir: string) => {
  if (!readStoreOnMongo()) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `readstore.sqlite${suffix}`), { force: true });
    return;
  }
  const mongo = new MongoClient((await readStoreEnv(dir)).MONGODB_URL);
  try {
    await mongo.db().dropDatabase();
  } finally {
    await mongo.close();
  }
};

t.test('projections rebuild in worker threads makes the read models the live projector made, and the projector resumes at the end', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  let svc = await startService(dir);
  const ws = await tenant(svc.baseUrl, dir);
  for (let i = 0; i < 4; i++) {
    const customer = (await ws.api.post('/customers', { email: `r${i}@example.com`, name: `Customer ${i}` })).body;
    if (i === 0) await ws.api.patch(`/customers/${customer.id}`, { name: 'Renamed' });
    const conversation = (await ws.api.post('/conversations', { customer: { email: customer.email } })).body;
    const replies = [
      await ws.api.post(`/conversations/${conversation.id}/messages`, { content: `hello ${i}` }),
      await ws.api.post(`/conversations/${conversation.id}/messages`, { content: `again ${i}` }),
      await ws.api.post('/tags', { name: `tag ${i}` }),
    ];
    t.strictSame(
      replies.map((reply) => reply.status),
      [201, 201, 201],
      JSON.stringify(replies.map((reply) => reply.body)),
    );
  }
  const before = await snapshot(ws.api);
  t.equal(before.messages.flatMap((m: { data: unknown[] }) => m.data).length, 8);
  // Beside the running embedded service, a rebuild is refused: it would lose what the service
  // writes meanwhile (on MongoDB a running service cannot be told from here: stopping it is the operator's)
  if (!readStoreOnMongo()) {
    const beside = await admin(dir, 'projections', 'rebuild', '--json');
    t.strictSame(
      [beside.code, beside.stdout, /readstore\.sqlite is open in another process \(the service\): stop it/.test(beside.stderr)],
      [1, '', true],
      beside.stderr,
    );
    t.strictSame(await snapshot(ws.api), before, 'and nothing was touched');
  }
  await svc.stop();
  await dropReadStore(dir);

  const inOneThread = await admin(dir, 'projections', 'rebuild', '--json');
  t.equal(inOneThread.code, 0, inOneThread.stderr);
  t.notMatch(inOneThread.stderr, /rebuilding in/, 'by default a short log is rebuilt in one thread');
  const r = await admin(dir, 'projections', 'rebuild', '--workers', '2', '--json');
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /^rebuilding in 2 workers: [a-z_, ]+ \| [a-z_, ]+$/m, 'the groups on stderr');
  const log = await replayEvents(dir);
  const last = log[log.length - 1];
  t.equal(JSON.parse(r.stdout).events, log.length, 'every event of the log counted once');

  svc = await startService(dir);
  t.teardown(() => svc.stop());
  const starting = svc.output.map((line) => JSON.parse(line)).find((l) => l.msg === 'projector starting' && l.checkpoint === 'projector');
  t.equal(starting?.from, last.position, 'the projector starts where the rebuild ended');
  t.strictSame(await snapshot(client(svc.baseUrl, ws.key)), before);
});

t.test('projections rebuild --workers takes a whole number from 1', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  for (const bad of ['0', 'two']) {
    const r = await admin(dir, 'projections', 'rebuild', '--workers', bad);
    t.equal(r.code, 2, `--workers ${bad}`);
    t.match(r.stderr, /--workers takes a whole number/);
  }
});
