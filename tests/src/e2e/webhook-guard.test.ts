import t from 'tap';
import { client } from '../support/client';
import { expectError } from '../support/expect';
import { Receiver, settledDeliveries } from '../support/receiver';
import { removeDir, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { tenant } from '../support/workspace';

t.test('with the guard on, internal addresses are refused at registration', async (t) => {
  const dir = tempDir();
  const svc = await startService(dir, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  t.teardown(async () => {
    await svc.stop();
    removeDir(dir);
  });
  const ws = await tenant(svc.baseUrl, dir);
  for (const url of [
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:0:7f00:1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://[2001::ffff:f5ff:fffe]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://0.0.0.0/hook',
    'https://metadata.google.internal/computeMetadata',
    'https://user:pass@example.com/hook',
  ]) {
    const r = await ws.api.post('/webhook_endpoints', { url, enabled_events: ['*'] });
    expectError(t, r, 400, 'validation_error');
    t.match(r.body.error.message, /^url refused: /, url);
  }
  // Not HTTPS: the schema itself refuses it (its pattern), before any lookup.
  const sixToFour = await ws.api.post('/webhook_endpoints', { url: 'https://[2002:7f00:1::]/', enabled_events: ['*'] });
  t.strictSame(
    [sixToFour.status, sixToFour.body.error.message],
    [400, 'url refused: resolves to 2002:7f00:1::, a loopback address (its IPv4 address 127.0.0.1)'],
  );
  // A line break would reach the owner's notice mails as text of the caller's; the parser would drop it from what is dialled.
  const crlf = await ws.api.post('/webhook_endpoints', {
    url: 'https://93.184.215.14/x\r\n\r\nSECURITY NOTICE: rotate at https://evil.example/',
    enabled_events: ['*'],
  });
  t.equal(crlf.status, 400);
  t.match(crlf.body.error.message, /control characters/);
  const plain = await ws.api.post('/webhook_endpoints', { url: 'http://example.com/hook', enabled_events: ['*'] });
  expectError(t, plain, 400);
  t.strictSame(plain.body.error.message, 'Invalid body: url must be an https:// URL (no control characters)');
  const created = await ws.api.post('/webhook_endpoints', { url: 'https://93.184.215.14/hook', enabled_events: ['*'] });
  t.equal(created.status, 201, 'a public address is accepted');
  expectError(t, await ws.api.patch(`/webhook_endpoints/${created.body.id}`, { url: 'https://10.0.0.1/x' }), 400, 'validation_error');
});

t.test('the guard is checked again at every delivery: a refusal is a recorded failure, not a crash', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  const base = { NODE_EXTRA_CA_CERTS: receiver.caFile, WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_MS: '200' };
  // Registered while the operator allow-listed the receiver's address…
  let svc = await startService(dir, { ...base, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  const ws = await tenant(svc.baseUrl, dir);
  const ep = (await ws.api.post('/webhook_endpoints', { url: receiver.url('/guarded', '127.0.0.1'), enabled_events: ['customer.created'] })).body;
  t.match(ep.id, /^we_/, 'an allow-listed CIDR passes the guard');
  await ws.api.post('/customers', { email: 'allowed@example.com' });
  await receiver.waitFor('/guarded', 1);
  await svc.stop();
  // …then the allow-list is withdrawn: deliveries to that address are refused from now on.
  svc = await startService(dir, base);
  t.teardown(async () => {
    await svc.stop();
    await receiver.close();
    removeDir(dir);
  });
  const api = client(svc.baseUrl, ws.key);
  await api.post('/customers', { email: 'refused@example.com' });
  await until(async () => ((await api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data[0]?.attempt_count ?? 0) >= 2, 10_000);
  const [latest] = (await api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data;
  t.match(latest, { event_type: 'customer.created', response_status: null, last_error: /loopback/ });
  t.equal(receiver.on('/guarded').length, 1, 'nothing reached the receiver');
  // The endpoint's count is projected apart from the delivery: it follows.
  await until(async () => (await api.get(`/webhook_endpoints/${ep.id}`)).body.consecutive_failures >= 2, 10_000, 20, 'counted as failures');
  t.equal((await api.get('/me')).status, 200, 'the service is fine');
});

t.test('a restart in the middle of a retry schedule: the due retry is sent after it, once', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  let fail = true;
  receiver.reply = () => (fail ? { status: 500 } : { status: 200 });
  // A 1.5 s first backoff: the service is down when the retry falls due.
  const env = { NODE_EXTRA_CA_CERTS: receiver.caFile, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '1500', WEBHOOK_RETRY_MAX_MS: '3000' };
  let svc = await startService(dir, env);
  const ws = await tenant(svc.baseUrl, dir);
  const ep = (await ws.api.post('/webhook_endpoints', { url: receiver.url('/restart'), enabled_events: ['customer.created'] })).body;
  await ws.api.post('/customers', { email: 'restart@example.com' });
  await receiver.waitFor('/restart', 1);
  let scheduled: { attempt_count: number; next_retry_at: string | null } | undefined;
  await until(
    async () => (scheduled = (await ws.api.get(`/webhook_endpoints/${ep.id}/deliveries`)).body.data[0])?.attempt_count === 1,
    10_000,
    50,
    'the first attempt booked',
  );
  t.equal(await svc.stop(), 0);
  fail = false;
  t.equal(receiver.on('/restart').length, 1, 'the retry had not gone out before the stop');
  // The scenario is a retry that falls due while the service is down: wait for the time it was
  // booked for (the service's clock is this machine's), not for a guessed while.
  const due = Date.parse(scheduled!.next_retry_at!);
  await until(() => Date.now() > due, 10_000, 50, 'the retry due');
  t.equal(receiver.on('/restart').length, 1, 'nothing was sent while down');
  svc = await startService(dir, env);
  t.teardown(async () => {
    await svc.stop();
    await receiver.close();
    removeDir(dir);
  });
  const api = client(svc.baseUrl, ws.key);
  // Succeeded is final: no attempt of this delivery is to come, so the receiver's count is too.
  const [delivery] = await settledDeliveries(api, ep.id, (ds) => ds[0]?.status === 'succeeded');
  t.match(delivery, { attempt_count: 2, status: 'succeeded' });
  const hits = receiver.on('/restart');
  t.equal(hits.length, 2, 'the retry was sent once');
  t.equal(hits[0].headers['service-webhook-id'], hits[1].headers['service-webhook-id']);
});
