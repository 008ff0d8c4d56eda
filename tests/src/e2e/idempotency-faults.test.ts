import type { AddressInfo } from 'node:net';
import { workspacesOf } from '@support/workspaces';
import t, { type Test } from 'tap';
import { Application, loadConfig, openEngines, silentLogger } from '@support/application';
import { endpointsOf, webhookEndpointsOf } from '@support/webhook-endpoints';
import { createHttpApp } from '@support/api';
import type { ReadStore } from '@support/readstore';
import { client, type Client } from '../support/client';
import { expectError } from '../support/expect';
import { removeDir, replayEvents, serviceMain, startProcess, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { tenant } from '../support/workspace';
import { apiOf } from '@support/http';
import { CATALOG } from '@support/catalog';
import { tagsOf } from '@support/tags/routes';

/**
 * A write that was saved never answers 500, and a retry with the same Idempotency-Key after any
 * failure (the read models late, a read that fails, the process killed between the append and
 * the answer) performs nothing twice and answers the saved resource. Each fault is injected.
 */

const system = { workspaceId: null, actor: 'test', requestId: null };

/** An API on `dir` (its own engines, as another process would have), with `reads` changed as given. */
const serve = async (t: Test, dir: string, opts: { projector: boolean; timeoutMs?: number; reads?: (r: ReadStore) => ReadStore }) => {
  const engines = openEngines({ dataDir: dir });
  const app = new Application({
    catalog: CATALOG,
    config: {
      ...loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
      dataDir: dir,
      readYourWritesTimeoutMs: opts.timeoutMs ?? 5000,
      validateResponses: true,
    },
    log: silentLogger,
    engines: opts.reads ? { ...engines, reads: opts.reads(engines.reads) } : engines,
    projector: opts.projector,
  });
  await app.start();
  const server = createHttpApp(apiOf(app)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      await new Promise((r) => server.close(r));
      await app.stop();
    })());
  t.teardown(stop);
  return { app, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, stop };
};

/** A workspace and key, projected (so an API without a projector still knows the key). */
const keyOn = async (t: Test, dir: string) => {
  const setup = await serve(t, dir, { projector: true });
  const { workspace } = await workspacesOf(setup.app).commands.create(system, { name: 'Faults' });
  const { key, position } = await workspacesOf(setup.app).keys.create(system, { workspaceId: workspace.id, name: 'k' });
  await setup.app.settle(position);
  await setup.stop();
  return key;
};

const created = async (dir: string, type: string) => (await replayEvents(dir)).filter((e) => e.type === type);

t.test('the read models late: 503 write_committed with the id, the retry answers the saved resource, one event', async (t) => {
  const dir = tempDir('idem-late-');
  t.teardown(() => removeDir(dir));
  const key = await keyOn(t, dir);
  // An API process with no projector anywhere: its writes are saved, and never reach the read models.
  const late = await serve(t, dir, { projector: false, timeoutMs: 200 });
  const api = client(late.url, key);
  const headers = { 'Idempotency-Key': 'late-1' };
  const first = await api.post('/conversations', { metadata: { try: 1 } }, headers);
  expectError(t, first, 503, 'write_committed');
  t.equal(first.headers.get('retry-after'), '1');
  t.match(first.body.error.details, { id: /^conv_/, resource: 'conversation' });
  const again = await api.post('/conversations', { metadata: { try: 1 } }, headers);
  t.strictSame([again.status, again.body.error.details.id], [503, first.body.error.details.id], 'the retry is the same request: same id, nothing new');
  const message = await api.post(`/conversations/${first.body.error.details.id}/messages`, { content: 'hi' }, { 'Idempotency-Key': 'late-msg' });
  expectError(t, message, 503, 'write_committed');

  // The projector comes back: the same requests now answer the saved resources.
  await late.stop();
  const back = await serve(t, dir, { projector: true });
  const api2 = client(back.url, key);
  const retried = await api2.post('/conversations', { metadata: { try: 1 } }, headers);
  t.strictSame([retried.status, retried.body.id, retried.body.metadata], [201, first.body.error.details.id, { try: 1 }]);
  const messageRetried = await api2.post(`/conversations/${first.body.error.details.id}/messages`, { content: 'hi' }, { 'Idempotency-Key': 'late-msg' });
  t.strictSame([messageRetried.status, messageRetried.body.id], [201, message.body.error.details.id]);
  t.equal((await api2.post('/conversations', { metadata: { try: 1 } }, headers)).headers.get('idempotent-replayed'), 'true', 'then replayed from the cache');
  t.equal((await created(dir, 'conversation.created')).length, 1, 'one conversation.created for three tries');
  t.equal((await created(dir, 'message.created')).length, 1, 'one message.created for two tries');
});

t.test('a read-back that fails: 503, never 500; the retry answers the resource; tags, endpoints and secrets too', async (t) => {
  const dir = tempDir('idem-read-');
  t.teardown(() => removeDir(dir));
  const key = await keyOn(t, dir);
  let failing = true;
  const svc = await serve(t, dir, { projector: true });
  // The route's read-back fails (as a read store that drops a connection would); the projector goes on.
  const failWhileFailing = <D>(models: { get(workspaceId: string, id: string): Promise<D | null> }) => {
    const get = models.get.bind(models);
    models.get = async (workspaceId, id) => {
      if (failing) throw new Error('connection reset');
      return get(workspaceId, id);
    };
  };
  failWhileFailing(tagsOf(svc.app).reads);
  failWhileFailing(endpointsOf(svc.app).scoped);
  const api: Client = client(svc.url, key);
  const tag = await api.post('/tags', { name: 'Urgent' }, { 'Idempotency-Key': 'tag-1' });
  expectError(t, tag, 503, 'write_committed');
  const endpoint = { url: 'https://127.0.0.1/hook', enabled_events: ['*'] };
  const hook = await api.post('/webhook_endpoints', endpoint, { 'Idempotency-Key': 'hook-1' });
  expectError(t, hook, 503, 'write_committed');
  failing = false;
  const tagRetry = await api.post('/tags', { name: 'Urgent' }, { 'Idempotency-Key': 'tag-1' });
  t.strictSame([tagRetry.status, tagRetry.body.id, tagRetry.body.name], [201, tag.body.error.details.id, 'Urgent'], 'not a 409: the name is the tag it made');
  t.equal((await created(dir, 'tag.created')).length, 1);
  const hookRetry = await api.post('/webhook_endpoints', endpoint, { 'Idempotency-Key': 'hook-1' });
  t.strictSame([hookRetry.status, hookRetry.body.id], [201, hook.body.error.details.id]);
  // The log's replay redacts secrets: the dispatcher's copy in the read model is the one in force.
  const secretInForce = async () => (await svc.app.engines.reads.collection({ name: 'webhook_endpoints' }).get(hookRetry.body.id))?.secret;
  t.equal(hookRetry.body.secret, await secretInForce(), 'the retry shows the secret the create made');
  failing = true;
  const rolled = await api.post(`/webhook_endpoints/${hookRetry.body.id}/roll_secret`, undefined, { 'Idempotency-Key': 'roll-1' });
  expectError(t, rolled, 503, 'write_committed');
  failing = false;
  const rollRetry = await api.post(`/webhook_endpoints/${hookRetry.body.id}/roll_secret`, undefined, { 'Idempotency-Key': 'roll-1' });
  const rolls = (await replayEvents(dir)).filter((e) => e.type === 'webhook_endpoint.secret_rolled');
  t.equal(rolls.length, 1, 'one roll for two tries');
  t.equal(rollRetry.body.secret, await secretInForce(), 'the retry shows the secret the roll made');
  t.not(rollRetry.body.secret, hookRetry.body.secret);
  t.equal((await created(dir, 'webhook_endpoint.created')).length, 1);

  // Five tries of one request at once (a client retrying on its own timeout): decided once.
  const conversation = (await api.post('/conversations', {})).body.id as string;
  const tries = await Promise.all(
    Array.from({ length: 5 }, () => api.post(`/conversations/${conversation}/messages`, { content: 'once' }, { 'Idempotency-Key': 'burst-1' })),
  );
  t.strictSame(
    tries.map((r) => [r.status, r.body.id]),
    tries.map(() => [201, tries[0].body.id]),
  );
  t.equal((await created(dir, 'message.created')).length, 1, 'one message for five tries at once');

  // One create decided twice at once (both found no prior write, then one append won): the one
  // that lost made a signing secret nothing stored, and must not show it.
  const workspaceId = String((await api.get('/me')).body.workspace.id);
  const ctx = { workspaceId, actor: 'test', requestId: null, idempotencyKey: 'race-1', ids: { next: (p: string) => `${p}01KRACE0000000000000000001` } };
  const raced = () => webhookEndpointsOf(svc.app).create(ctx, { url: 'https://127.0.0.1/raced', enabled_events: ['*'] });
  const [a, b] = await Promise.all([raced(), raced()]);
  t.strictSame(
    [a, b].map((r) => r.replayed),
    [false, true],
    'the second found the first in the stream',
  );
  t.equal(b.secret, null, 'the loser shows no secret of its own: the route shows the stored one');
  await svc.app.settle(b.position);
  t.equal(a.secret, (await svc.app.engines.reads.collection({ name: 'webhook_endpoints' }).get(a.id))?.secret, 'the winner shows the one in force');
});

t.test('the api killed between the append and the answer: the retry answers the saved resource at once', async (t) => {
  const dir = tempDir('idem-kill-');
  t.teardown(() => removeDir(dir));
  const setup = await startService(dir);
  const ws = await tenant(setup.baseUrl, dir);
  await setup.stop();
  // The api alone (no projector in any process): a write appends, then waits for read models that never come.
  const api = await startProcess(serviceMain('api'), dir, { READ_YOUR_WRITES_TIMEOUT_MS: '60000' });
  const body = { customer: { email: 'killed@example.com' }, metadata: { source: 'sigkill' } };
  const pending = client(api.baseUrl, ws.key)
    .post('/conversations', body, { 'Idempotency-Key': 'kill-1' })
    .catch((err: unknown) => err);
  await until(async () => (await created(dir, 'conversation.created')).length === 1, 20_000, 100, 'the append');
  t.equal(await api.stop('SIGKILL'), null);
  t.type(await pending, Error, 'the client got no answer');
  const svc = await startService(dir);
  t.teardown(() => svc.stop());
  const retry = await client(svc.baseUrl, ws.key).post('/conversations', body, { 'Idempotency-Key': 'kill-1' });
  const saved = (await created(dir, 'conversation.created'))[0];
  t.strictSame(
    [retry.status, retry.body.id, retry.body.metadata],
    [201, saved.data.id, { source: 'sigkill' }],
    'not a 409 in progress: the saved conversation',
  );
  t.equal(saved.metadata.idempotency_key?.length, 32, 'the event carries the key (hashed)');
  t.equal((await created(dir, 'conversation.created')).length, 1, 'and only one was made');
  t.equal((await created(dir, 'customer.created')).length, 1);
});
