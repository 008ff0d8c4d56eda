import { spawn } from 'node:child_process';
import t from 'tap';
import { client } from '../support/client';
import { adminJson, removeDir, ROOT, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { tenant } from '../support/workspace';

t.test('SIGTERM exits 0 and a restart on the same data directory loses nothing', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  let svc = await startService(dir);
  const ws = await tenant(svc.baseUrl, dir);
  const customer = (await ws.api.post('/customers', { email: 'keep@example.com', name: 'Kept' })).body;
  const tag = (await ws.api.post('/tags', { name: 'kept' })).body;
  t.equal(await svc.stop('SIGTERM'), 0, 'exit code 0 on SIGTERM');

  // Written while the service is down: the projector picks it up from its checkpoint.
  const later = await adminJson<{ key: string }>(dir, 'key', 'create', '--workspace', ws.workspaceId, '--name', 'while-down');

  svc = await startService(dir);
  const api = client(svc.baseUrl, ws.key);
  t.strictSame((await api.get(`/customers/${customer.id}`)).body, customer);
  t.strictSame((await api.get('/tags')).body.data, [tag]);
  await until(async () => (await client(svc.baseUrl, later.key).get('/me')).status === 200, 10_000);
  t.equal((await api.post('/customers', { email: 'keep@example.com' })).body.id, customer.id, 'dedup survives the restart');
  t.equal((await api.post('/tags', { name: 'KEPT' })).status, 409, 'tag names survive the restart');
  t.equal(await svc.stop('SIGINT'), 0, 'exit code 0 on SIGINT');
});

t.test('after a crash (SIGKILL) every acknowledged write is still there', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  let svc = await startService(dir);
  const ws = await tenant(svc.baseUrl, dir);
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push((await ws.api.post('/customers', { email: `crash${i}@example.com` })).body.id);
  await svc.stop('SIGKILL');
  svc = await startService(dir);
  t.teardown(() => svc.stop());
  const api = client(svc.baseUrl, ws.key);
  const listed = (await api.get('/customers?limit=100')).body.data.map((c: { id: string }) => c.id);
  t.strictSame(listed, [...ids].reverse());
});

// How soon is a latency, measured by the benchmark; here: it shows up at all, without a restart.
t.test('the admin CLI writes while the service runs, and the service sees it', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  const svc = await startService(dir);
  t.teardown(() => svc.stop());
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Live');
  const key = await adminJson<{ key: string }>(dir, 'key', 'create', '--workspace', ws.id, '--name', 'live');
  const api = client(svc.baseUrl, key.key);
  await until(async () => (await api.get('/me')).status === 200, 10_000, 50, 'the new key accepted');
  t.equal((await api.get('/me')).body.workspace.id, ws.id);
});

t.test('SIGTERM to `npm start` stops the service it started (no orphan keeps the data directory)', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  // npm runs the script through a shell: unless the shell hands its process over to node, the
  // signal stops npm and the shell and leaves the service running, its files still open.
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const child = spawn(npm[0] as string, [...(npm[1] as string[]), 'start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '0.0.0.0', DATA_DIR: dir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await until(async () => /listening on (http:\/\/[^\s"]+)/.test(output), 60_000);
  const baseUrl = /listening on (http:\/\/[^\s"]+)/.exec(output)![1];
  // The service's own pid (its instance id is host:pid), so a failing run leaves no orphan behind.
  const pid = Number(/"instance":"[^"]*:(\d+)"/.exec(output)?.[1]);
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  });
  t.equal((await fetch(`${baseUrl.replace(/\/v1$/, '')}/healthz`)).status, 200);
  t.match(output, /"bound":"0\.0\.0\.0:\d+"/, 'the start-up line says it listens on every interface, not only the URL it gives');
  child.kill('SIGTERM');
  await exited;
  const gone = async () =>
    fetch(`${baseUrl.replace(/\/v1$/, '')}/healthz`).then(
      () => false,
      () => true,
    );
  await until(gone, 15_000);
  t.match(output, /"msg":"stopped"/, 'the service shut down cleanly');
});
