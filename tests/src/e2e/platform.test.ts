import t from 'tap';
import { client, Client, Reply } from '../support/client';
import { expectError } from '../support/expect';
import { adminJson, removeDir, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { serviceFixture } from '../support/fixture';
import { tenant } from '../support/workspace';

const e2e = serviceFixture();

t.test('a walk of 45 customers in pages has no gaps and no repeats', async (t) => {
  const p = await tenant(e2e.svc.baseUrl, e2e.dir);
  const created: string[] = [];
  for (let i = 0; i < 45; i++) created.push((await p.api.post('/customers', { email: `page${i}@example.com` })).body.id);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await p.api.get(`/customers?limit=10${cursor ? `&starting_after=${cursor}` : ''}`);
    t.equal(r.status, 200);
    t.equal(r.body.object, 'list');
    seen.push(...r.body.data.map((c: { id: string }) => c.id));
    t.equal(r.body.next_cursor, r.body.has_more ? r.body.data[r.body.data.length - 1].id : null);
    cursor = r.body.next_cursor;
    pages += 1;
  } while (cursor);
  t.equal(pages, 5);
  t.strictSame(seen, [...created].reverse(), 'every customer once, newest first');
  const dflt = await p.api.get('/customers');
  t.equal(dflt.body.data.length, 20, 'default limit is 20');
  t.equal(dflt.body.has_more, true);
  t.equal((await p.api.get('/customers?limit=100')).body.data.length, 45);
});

t.test('starting_after must be an item id: a mistyped cursor is refused, not the first page again', async (t) => {
  for (const bad of ['garbage', 'cus_123', 'cus_01hzzzzzzzzzzzzzzzzzzzzzzz']) {
    const r = await e2e.ws.api.get(`/customers?starting_after=${bad}`);
    expectError(t, r, 400);
    t.strictSame(r.body.error.details.fields, [
      { field: 'starting_after', code: 'invalid_format', message: "must be an item id: the previous page's next_cursor" },
    ]);
  }
  // An id of the right form that no longer exists (or never did) still pages by id order.
  t.equal((await e2e.ws.api.get('/customers?starting_after=cus_00000000000000000000000000')).status, 200);
});

t.test('limit must be 1 to 100', async (t) => {
  for (const bad of ['0', '101', 'abc', '-1', '2.5']) {
    const r = await e2e.ws.api.get(`/customers?limit=${bad}`);
    expectError(t, r, 400);
    t.match(r.body.error.message, /limit/);
  }
});

t.test('Idempotency-Key replays the first 2xx response and does nothing else', async (t) => {
  const headers = { 'Idempotency-Key': 'tag-create-1' };
  const first = await e2e.ws.api.post('/tags', { name: 'Once' }, headers);
  t.equal(first.status, 201);
  t.equal(first.headers.get('idempotent-replayed'), null);
  const replay = await e2e.ws.api.post('/tags', { name: 'Once' }, headers);
  t.equal(replay.status, 201, 'not a 409 duplicate-name conflict: nothing ran again');
  t.equal(replay.headers.get('idempotent-replayed'), 'true');
  t.strictSame(replay.body, first.body);
  // The replay has a Request-Id of its own; the one that made the answer (and its events) is named too.
  t.strictSame([first.headers.get('original-request-id'), replay.headers.get('original-request-id')], [null, first.headers.get('request-id')]);
  t.not(replay.headers.get('request-id'), first.headers.get('request-id'));
  t.equal((await e2e.ws.api.get('/tags')).body.data.filter((x: { name: string }) => x.name === 'Once').length, 1);
  // The same JSON written another way (key order, whitespace) is the same request: replayed.
  const rewritten = await fetch(`${e2e.svc.baseUrl}/tags`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${e2e.ws.key}`, 'content-type': 'application/json' },
    body: '{ "name" :  "Once" }\n',
  });
  t.strictSame([rewritten.status, rewritten.headers.get('idempotent-replayed'), await rewritten.json()], [201, 'true', first.body]);
  const other = await e2e.ws.api.post('/tags', { name: 'Different' }, headers);
  expectError(t, other, 400, 'validation_error');
  t.match(other.body.error.message, /Idempotency-Key/);
  // A failed request is not cached: the same key can be retried.
  const failing = { 'Idempotency-Key': 'tag-create-2' };
  expectError(t, await e2e.ws.api.post('/tags', { name: 'Once' }, failing), 409, 'conflict');
  t.equal((await e2e.ws.api.post('/tags', { name: 'Twice' }, failing)).status, 201, 'the failure freed the key');
});

t.test('Idempotency keys are scoped per workspace', async (t) => {
  const other = await tenant(e2e.svc.baseUrl, e2e.dir);
  const headers = { 'Idempotency-Key': 'shared-key' };
  const a = await e2e.ws.api.post('/customers', { email: 'idem@example.com' }, headers);
  const b = await other.api.post('/customers', { email: 'idem@example.com' }, headers);
  t.equal(b.headers.get('idempotent-replayed'), null);
  t.not(a.body.id, b.body.id);
});

t.test('every response carries the RateLimit headers and a request id', async (t) => {
  const anon = client(e2e.svc.baseUrl);
  for (const r of [
    await e2e.ws.api.get('/me'),
    await e2e.ws.api.get('/nope'),
    await anon.get('/me'),
    await anon.get('/openapi.json'),
    await e2e.ws.api.post('/tags', '{bad'),
  ]) {
    t.match(r.headers.get('ratelimit-limit'), /^\d+$/);
    t.match(r.headers.get('ratelimit-remaining'), /^\d+$/);
    t.match(r.headers.get('ratelimit-reset'), /^\d+$/);
    t.match(r.headers.get('request-id'), /^req_/);
  }
});

t.test('rate limits: per key, per workspace, 429 with Retry-After', async (t) => {
  // Scale 0.05: 3 writes and 6 reads per key, 18 reads per workspace, in each 60-second window.
  // The windows follow the wall clock (the limiter itself is tested on an injected clock in
  // application/rate-limiter.test.ts): a run that a window boundary cut in two is redone.
  const rdir = tempDir();
  const limited = await startService(rdir, { RATE_LIMIT_SCALE: '0.05' });
  t.teardown(async () => {
    await limited.stop();
    removeDir(rdir);
  });

  /** A new workspace with five keys that the service accepts; waiting for them spends no read. */
  const freshKeys = async (): Promise<Client[]> => {
    const { id } = await adminJson<{ id: string }>(rdir, 'workspace', 'create', '--name', 'Limited');
    const keys: Client[] = [];
    for (let i = 0; i < 5; i++)
      keys.push(client(limited.baseUrl, (await adminJson<{ key: string }>(rdir, 'key', 'create', '--workspace', id, '--name', `k${i}`)).key));
    // The projector follows the log: once the last key works, all do. Until then the probe is a
    // 401 (or a 429 once the address's budget is spent); then it is one write of that key.
    await until(async () => (await keys[4].post('/tags', { name: 'probe' })).status === 201, 10_000, 50, 'the keys accepted');
    return keys;
  };

  /** The requests below, or null when they did not all fall in one window (RateLimit-Reset went up). */
  const inOneWindow = async () => {
    const [a, ...others] = await freshKeys();
    const own: Reply[] = [];
    for (let i = 0; i < 7; i++) own.push(await a.get('/me'));
    const write = await a.post('/tags', { name: 'writes-are-another-tier' });
    // Four more keys, each used below its own limit of 6: together they pass the workspace's 18.
    const shared: Reply[] = [];
    for (let round = 0; round < 4; round++) for (const k of others) shared.push(await k.get('/me'));
    const resets = [...own, write, ...shared].map((r) => Number(r.headers.get('ratelimit-reset')));
    return resets.every((r, i) => i === 0 || r <= resets[i - 1]) ? { own, write, shared } : null;
  };
  let run = await inOneWindow();
  for (let attempt = 1; attempt < 3 && !run; attempt++) run = await inOneWindow();
  if (!run) throw new Error('three runs in a row were cut by a window boundary');
  const { own, write, shared } = run;

  t.strictSame(
    own.map((r) => [r.status, r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')]),
    [
      [200, '6', '5'],
      [200, '6', '4'],
      [200, '6', '3'],
      [200, '6', '2'],
      [200, '6', '1'],
      [200, '6', '0'],
      [429, '6', '0'],
    ],
    'six reads per key, then 429',
  );
  const refused = own[6];
  expectError(t, refused, 429, 'rate_limited');
  t.equal(refused.headers.get('retry-after'), refused.headers.get('ratelimit-reset'), 'Retry-After is the time to the next window');
  t.ok(Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60);
  t.equal(write.status, 201, 'writes count separately');
  // a's six reads count against the workspace (its refused seventh does not): 12 more fit.
  t.strictSame(
    shared.map((r) => r.status),
    [...Array(12).fill(200), 429, 429, 429, 429],
    'the workspace limit refuses keys that are within their own',
  );
  t.strictSame(
    shared.slice(12).map((r) => [r.headers.get('ratelimit-limit'), r.headers.get('ratelimit-remaining')]),
    Array(4).fill(['18', '0']),
    'headers show the workspace limit that binds',
  );
});

t.test('the listening line is printed at every LOG_LEVEL (scripts wait for it)', async (t) => {
  for (const level of ['warn', 'error']) {
    const quietDir = tempDir();
    const quiet = await startService(quietDir, { LOG_LEVEL: level });
    t.ok(
      quiet.output.some((l) => /listening on http:\/\//.test(l)),
      `LOG_LEVEL=${level}`,
    );
    t.notOk(
      quiet.output.some((l) => /"level":"info"/.test(l) && !/listening on/.test(l)),
      'and nothing else at info',
    );
    t.equal(await quiet.stop(), 0);
    removeDir(quietDir);
  }
});

t.test('GET /healthz: no key, and every log consumer of the process with its status', async (t) => {
  const res = await fetch(e2e.svc.baseUrl.replace(/\/v1$/, '/healthz'));
  t.equal(res.status, 200);
  const body = (await res.json()) as { status: string; consumers: { name: string; status: string; failures: number }[] };
  t.equal(body.status, 'ok');
  t.strictSame(body.consumers.map((c) => c.name).sort(), ['dispatcher', 'knowledge-index', 'notifier', 'projector', 'ticket-responses']);
  t.ok(body.consumers.every((c) => c.status === 'running' && c.failures === 0));
  t.ok(
    body.consumers.every((c) => typeof (c as { lag_ms?: unknown }).lag_ms === 'number'),
    'each says how far behind it is',
  );
  t.match(
    body.consumers.find((c) => c.name === 'notifier'),
    { skipped: 0 },
    'the one consumer that may skip says how many it skipped',
  );
});
