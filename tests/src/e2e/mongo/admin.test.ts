// The admin CLI with MONGODB_URL (FerretDB in CI): it used to print its result and then exit 1
// with "Topology is closed", its read store's index creation still under way at close.
import { MongoClient } from 'mongodb';
import t from 'tap';
import { onMongoReadStore } from '../../support/mongo-suite';
import { admin, adminJson, readStoreEnv, removeDir, run, tempDir } from '../../support/service';

onMongoReadStore(async () => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));

  t.test('npm run --silent admin -- workspace create --json: the workspace, then exit 0', async (t) => {
    const r = await run('npm', ['run', '--silent', 'admin', '--', 'workspace', 'create', '--name', 'On Mongo', '--json'], {
      DATA_DIR: dir,
      ...(await readStoreEnv(dir)),
    });
    t.equal(r.code, 0, r.stderr);
    t.equal(r.stderr, '');
    t.match(JSON.parse(r.stdout), { id: /^ws_/, name: 'On Mongo', slug: 'on-mongo', plan: 'pro', credits: 1000, sla_tracking: false });
  });

  t.test('every command exits 0 with its JSON, and the read models are in MongoDB', async (t) => {
    for (let i = 0; i < 3; i++) {
      const r = await admin(dir, 'workspace', 'create', '--name', `Mongo ${i}`, '--json');
      t.equal(r.code, 0, r.stderr);
      t.notMatch(r.stderr, /Error/);
      t.match(JSON.parse(r.stdout), { name: `Mongo ${i}` });
    }
    const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Keys', '--sla-tracking', 'on');
    t.match(await adminJson(dir, 'key', 'create', '--workspace', ws.id, '--name', 'k'), { key: /^sk_live_/ });
    t.match(await adminJson(dir, 'workspace', 'set', '--id', ws.id, '--plan', 'starter'), { plan: 'starter', sla_tracking: true });
    t.match(await adminJson(dir, 'workspace', 'get', '--id', ws.id), { id: ws.id, plan: 'starter' });
    t.match(await adminJson(dir, 'projections', 'rebuild'), { projections: Array });
    const taken = await admin(dir, 'workspace', 'create', '--name', 'Again', '--slug', 'on-mongo', '--json');
    t.equal(taken.code, 1, 'a refused command still exits 1');
    t.match(taken.stderr, /slug "on-mongo" is taken/);

    const client = new MongoClient((await readStoreEnv(dir)).MONGODB_URL);
    try {
      const doc = await client.db().collection<{ _id: string }>('rm_workspaces').findOne({ _id: ws.id });
      t.match(doc, { name: 'Keys', plan: 'starter', sla_tracking: true });
    } finally {
      await client.close();
    }
  });
});
