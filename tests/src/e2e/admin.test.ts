import t from 'tap';
import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { ADMIN, admin, adminJson, readStoreEnv, removeDir, replayEvents, run, tempDir } from '../support/service';

const dir = tempDir();
t.teardown(() => removeDir(dir));

t.test('npm run --silent admin prints exactly one JSON object', async (t) => {
  const r = await run('npm', ['run', '--silent', 'admin', '--', 'workspace', 'create', '--name', 'Via npm', '--json'], { DATA_DIR: dir });
  t.equal(r.code, 0, r.stderr);
  const ws = JSON.parse(r.stdout);
  t.strictSame(Object.keys(ws).sort(), ['credits', 'email', 'id', 'name', 'plan', 'sla_tracking', 'slug']);
  t.match(ws, { id: /^ws_/, name: 'Via npm', slug: 'via-npm', plan: 'pro', credits: 1000, sla_tracking: false });
});

t.test('workspace create, set and get', async (t) => {
  const ws = await adminJson<{ id: string }>(
    dir,
    'workspace',
    'create',
    '--name',
    'Ops',
    '--slug',
    'ops-team',
    '--plan',
    'enterprise',
    '--credits',
    '50',
    '--sla-tracking',
    'on',
  );
  t.match(ws, { name: 'Ops', slug: 'ops-team', plan: 'enterprise', credits: 50, sla_tracking: true });
  t.match(await adminJson(dir, 'workspace', 'set', '--id', ws.id, '--plan', 'starter', '--sla-tracking', 'off'), {
    plan: 'starter',
    credits: 50,
    sla_tracking: false,
  });
  t.match(await adminJson(dir, 'workspace', 'get', '--id', ws.id), { id: ws.id, plan: 'starter' });
  const taken = await admin(dir, 'workspace', 'create', '--name', 'Again', '--slug', 'ops-team', '--json');
  t.equal(taken.code, 1);
  t.match(taken.stderr, /slug "ops-team" is taken/);
  const derived = await adminJson<{ slug: string }>(dir, 'workspace', 'create', '--name', 'Ops Team');
  t.match(derived.slug, /^ops-team-[0-9a-z]{8}$/, 'a derived slug that is taken gets a suffix');
});

t.test('key create: access levels, scopes, environment, expiry', async (t) => {
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Keys');
  const full = await adminJson<{ id: string; key: string; scopes: string[] }>(dir, 'key', 'create', '--workspace', ws.id, '--name', 'full');
  t.match(full, { id: /^key_/, key: /^sk_live_/, name: 'full', environment: 'live' });
  t.equal(full.scopes.length, 12);
  const ro = await adminJson<{ scopes: string[] }>(
    dir,
    'key',
    'create',
    '--workspace',
    ws.id,
    '--name',
    'ro',
    '--access',
    'read_only',
    '--environment',
    'test',
  );
  t.match(ro, { key: /^sk_test_/, environment: 'test' });
  t.ok(ro.scopes.every((s) => s.endsWith(':read')));
  const custom = await adminJson(dir, 'key', 'create', '--workspace', ws.id, '--name', 'c', '--scopes', 'tickets:read,channels:read');
  t.match(custom, { scopes: ['tickets:read', 'channels:read'] });
  t.match(await adminJson(dir, 'key', 'create', '--workspace', ws.id, '--name', 'e', '--expires-at', '2030-01-01T00:00:00Z'), {
    expires_at: '2030-01-01T00:00:00.000Z',
  });
  // A past expiry makes a key already expired (operator interface), with a warning saying so.
  const past = await admin(dir, 'key', 'create', '--workspace', ws.id, '--name', 'old', '--expires-at', '2020-01-01T00:00:00Z', '--json');
  t.strictSame(
    [past.code, JSON.parse(past.stdout).expires_at, /^warning: --expires-at 2020-01-01T00:00:00.000Z has passed/m.test(past.stderr)],
    [0, '2020-01-01T00:00:00.000Z', true],
    past.stderr,
  );
  const future = await admin(dir, 'key', 'create', '--workspace', ws.id, '--name', 'new', '--expires-at', '2030-01-01T00:00:00Z', '--json');
  t.equal(future.stderr, '', 'no warning for a time to come');
  for (const args of [
    ['--scopes', 'everything'],
    ['--access', 'root'],
    ['--environment', 'prod'],
    ['--expires-at', 'tomorrow'],
  ]) {
    const r = await admin(dir, 'key', 'create', '--workspace', ws.id, '--name', 'bad', ...args, '--json');
    t.equal(r.code, 1, `${args.join(' ')} is refused`);
    t.equal(r.stdout, '');
    t.match(r.stderr, /^error: /);
  }
});

t.test('keys are stored hashed: the secret appears nowhere in the data', async (t) => {
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Hash');
  const k = await adminJson<{ key: string }>(dir, 'key', 'create', '--workspace', ws.id, '--name', 'h');
  const secret = k.key.split('_').slice(3).join('_');
  const replay = await admin(dir, 'events', 'replay', '--workspace', ws.id);
  t.match(replay.stdout, /api_key\.created/);
  t.notMatch(replay.stdout, secret);
  const { readFileSync, readdirSync } = await import('node:fs');
  for (const f of readdirSync(dir)) t.notOk(readFileSync(`${dir}/${f}`).includes(secret), `${f} holds no secret`);
});

t.test('usage errors go to stderr with a non-zero exit', async (t) => {
  const missing = await admin(dir, 'workspace', 'create', '--json');
  t.equal(missing.code, 2);
  t.equal(missing.stdout, '');
  t.match(missing.stderr, /--name is required/);
  t.equal((await admin(dir, 'workspace', 'set', '--id', 'ws_x', '--credits', '-5')).code, 2);
  const nonsense = await admin(dir, 'nonsense');
  t.strictSame([nonsense.code, /^error: unknown command 'nonsense'/.test(nonsense.stderr)], [2, true], 'says which command is unknown');
  // Help anywhere: the command's own usage on stdout, exit 0.
  for (const args of [['help'], ['--help'], ['workspace', '--help'], ['backup', '-h']]) {
    const help = await admin(dir, ...args);
    t.strictSame([help.code, help.stderr], [0, ''], args.join(' '));
    t.match(help.stdout, /^usage: /);
  }
  const own = (await admin(dir, 'key', '--help')).stdout;
  t.ok(/key create/.test(own) && !/workspace create/.test(own), 'only the key commands');
  const gone = await admin(dir, 'restore', '--from', '/no/such/backup');
  t.strictSame([gone.code, /--from \/no\/such\/backup does not exist/.test(gone.stderr)], [1, true], gone.stderr);
  t.equal((await admin(dir, 'workspace', 'create', '--name', 'x', '--bogus')).code, 2);
  // A well-formed command refused: exit 1, the reason alone (the usage is for malformed ones)
  const unknown = await admin(dir, 'workspace', 'get', '--id', 'ws_missing', '--json');
  t.strictSame([unknown.code, unknown.stderr], [1, 'error: workspace ws_missing not found\n']);
  const noHistory = await admin(dir, 'events', 'replay', '--workspace', 'ws_missing');
  t.strictSame(
    [noHistory.code, noHistory.stdout, noHistory.stderr],
    [1, '', 'error: workspace ws_missing not found\n'],
    'a mistyped workspace is not an empty history',
  );
  // A flag given twice would do only the last, silently
  const twice = await admin(dir, 'projections', 'rebuild', '--name', 'tags', '--name', 'customers');
  t.strictSame([twice.code, /--name is given twice/.test(twice.stderr)], [2, true], twice.stderr);
  const workers = await admin(dir, 'projections', 'rebuild', '--workers', 'abc');
  t.match(workers.stderr, /--workers takes a whole number ≥ 1/);
});

t.test('events replay streams history as JSON lines; projections rebuild reports counts', async (t) => {
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Audit');
  const lines = await replayEvents(dir, '--workspace', ws.id);
  t.match(lines[0], {
    type: 'workspace.created',
    stream: `workspace-${ws.id}`,
    revision: 0,
    position: String,
    metadata: { workspace_id: ws.id, actor: 'admin', occurred_at: String },
  });
  const all = await replayEvents(dir);
  const from = all[all.length - 2].position;
  const tail = (await admin(dir, 'events', 'replay', '--from', from)).stdout.trim().split('\n');
  t.equal(tail.length, 1, '--from resumes after the given position');
  t.strictSame((await admin(dir, 'events', 'replay', '--from', all[all.length - 1].position)).stdout, '', 'from the last: nothing yet');
  const beyond = await admin(dir, 'events', 'replay', '--from', '999999999');
  t.strictSame(
    [beyond.code, beyond.stdout, /this log's last event is at/.test(beyond.stderr)],
    [1, '', true],
    'a position this log never reached is refused, not an empty history',
  );
  // A key revoked from the CLI is in its workspace's history.
  const key = await adminJson<{ id: string }>(dir, 'key', 'create', '--workspace', ws.id, '--name', 'gone');
  await adminJson(dir, 'key', 'revoke', '--id', key.id);
  t.match((await replayEvents(dir, '--workspace', ws.id)).slice(-1), [
    { type: 'api_key.revoked', stream: `apikey-${key.id}`, metadata: { workspace_id: ws.id } },
  ]);
  // A log written before every writer named the workspace: an event without one is its stream's.
  const log = new SqliteEventStore(join(dir, 'events.sqlite'));
  const metadata = { workspace_id: null, actor: 'admin', request_id: null, occurred_at: new Date().toISOString() };
  await log.append(`apikey-${key.id}`, [{ id: randomUUID(), type: 'api_key.revoked', data: { id: key.id }, metadata }], 'any');
  await log.close();
  t.match((await replayEvents(dir, '--workspace', ws.id)).slice(-1), [
    { type: 'api_key.revoked', stream: `apikey-${key.id}`, metadata: { workspace_id: null } },
  ]);
  const rebuilt = await adminJson<{ events: number; ms: number; projections: string[] }>(dir, 'projections', 'rebuild');
  t.equal(rebuilt.events, all.length + 3);
  t.ok(rebuilt.projections.includes('customers'));
  t.match(await adminJson(dir, 'projections', 'rebuild', '--name', 'tags'), { projections: ['tags'] });
  t.equal((await admin(dir, 'projections', 'rebuild', '--name', 'nope')).code, 2);
});

t.test('events replay into a reader that stops early (| head) ends quietly, exit 0', async (t) => {
  // Enough history to overflow a pipe's buffer: the writes after the reader left fail (EPIPE).
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Long history');
  const file = join(dir, 'many.json');
  writeFileSync(file, JSON.stringify({ canned_responses: Array.from({ length: 600 }, (_, i) => ({ name: `Reply ${i}`, content: 'x'.repeat(200) })) }));
  t.equal((await admin(dir, 'import', '--workspace', ws.id, '--file', file)).code, 0);
  const r = await run('bash', ['-c', `set -o pipefail; "${process.execPath}" "${ADMIN}" events replay | head -1`], {
    DATA_DIR: dir,
    ...(await readStoreEnv(dir)),
  });
  t.strictSame([r.code, r.stderr, typeof JSON.parse(r.stdout).type], [0, '', 'string']);
});

t.test("each run of the CLI names its own events: one request id for all a run writes, another for the next run's", async (t) => {
  // Given a workspace made by one run, and an import of two articles by another
  const ws = await adminJson<{ id: string }>(dir, 'workspace', 'create', '--name', 'Runs');
  const file = join(dir, `runs-${randomUUID()}.json`);
  const article = (n: number) => ({ id: `kb_${String(n).padStart(26, '0')}`, title: `Article ${n}`, content: `Text ${n}.` });
  writeFileSync(file, JSON.stringify({ knowledge_base_articles: [article(1), article(2)] }));
  await adminJson(dir, 'import', '--workspace', ws.id, '--file', file);
  // When an auditor replays its history
  const events = await replayEvents(dir, '--workspace', ws.id);
  const ids = events.map((e: { metadata: { request_id: string } }) => e.metadata.request_id);
  // Then each event names the run that wrote it: the workspace's run, then the import's for both articles
  t.strictSame(
    events.map((e: { type: string }) => e.type),
    ['workspace.created', 'knowledge_base_article.created', 'knowledge_base_article.created'],
  );
  t.match(ids[0], /^admin_[0-9a-f]{32}$/);
  t.strictSame([ids[1] === ids[2], ids[1] !== ids[0], /^admin_[0-9a-f]{32}$/.test(ids[1])], [true, true, true]);
});
