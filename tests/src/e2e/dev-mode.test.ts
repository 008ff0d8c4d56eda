import { spawn, spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import { removeDir, ROOT, tempDir } from '../support/service';
import { until, within } from '../support/wait';

/**
 * `npm run dev`: the service starts, a change to a compiled file it runs restarts it (TypeScript's
 * watch writes those files on every source change), and Ctrl-C stops everything it started.
 */
t.test('npm run dev: starts, restarts on a change, stops on Ctrl-C', { timeout: 120_000 }, async (t) => {
  const dataDir = tempDir('dev-');
  t.teardown(() => removeDir(dataDir));
  const dev = spawn(process.execPath, [join(ROOT, 'scripts/dev.mjs')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', AGENT_RERANKER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: whatever happens, the teardown leaves none of its processes behind.
    detached: true,
  });
  t.teardown(() => {
    try {
      process.kill(-dev.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  const origins: string[] = [];
  createInterface({ input: dev.stdout }).on('line', (line) => {
    const m = /listening on (http:\/\/\S+?)\/v1/.exec(line);
    if (m) origins.push(m[1]);
  });
  createInterface({ input: dev.stderr }).on('line', () => undefined);
  await until(() => origins.length === 1, 60_000, 50, 'the service listens');
  t.equal((await fetch(`${origins[0]}/healthz`)).status, 200);

  // A compiled file of the service changes (as tsc's watch rewrites it): the service restarts.
  const main = join(ROOT, 'services/standalone/dist/main.js');
  const now = new Date();
  utimesSync(main, now, now);
  await until(() => origins.length === 2, 30_000, 50, 'the service restarted');
  t.equal((await fetch(`${origins[1]}/healthz`)).status, 200, 'and serves again');

  // Ctrl-C: the script and everything it started exit.
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  dev.kill('SIGINT');
  t.equal(await within(exited, 30_000, 'npm run dev exits'), 0);
  await t.rejects(fetch(`${origins[1]}/healthz`), 'the service is gone');
});

t.test('npm run test:one builds what changed and runs the one test file', { timeout: 120_000 }, async (t) => {
  // As from a shell: none of this tap run's own settings (TAP_*, NODE_OPTIONS) reach the inner one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TAP') && k !== 'NODE_OPTIONS'));
  const r = spawnSync('npm', ['run', '--silent', 'test:one', '--', 'tests/src/agent/relevance.test.ts'], { cwd: ROOT, env, encoding: 'utf8' });
  t.equal(r.status, 0, 'npm run test:one exits 0', { output: r.stdout.slice(-800) });
  t.match(r.stdout, /ok 1 - tests\/build\/agent\/relevance\.test\.js/);
  t.notMatch(r.stdout, /tests\/build\/agent\/small-talk/, 'that file only');
});
