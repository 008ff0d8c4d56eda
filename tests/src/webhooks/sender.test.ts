import t from 'tap';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { sendWebhook, type GuardOptions, type SendRequest } from '@support/webhooks';

/** What the receiver saw, per request. */
interface Seen {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const strict: GuardOptions = { allowPrivateNetworks: false, allowedCidrs: [] };
const permissive: GuardOptions = { allowPrivateNetworks: true, allowedCidrs: [] };
const resolvesTo =
  (address: string): GuardOptions['lookup'] =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];

t.test('sendWebhook against a local HTTPS receiver', async (t) => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'receiver.test' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const ca = pems.cert;
  const seen: Seen[] = [];
  let connections = 0;
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      switch (new URL(req.url ?? '/', 'https://receiver').pathname) {
        case '/big':
          res.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(5000));
          return;
        case '/euro':
          res.writeHead(200).end('€'.repeat(1000)); // 3 bytes each: 2 KiB ends mid-character
          return;
        case '/small':
          res.writeHead(204).end();
          return;
        case '/fail':
          res.writeHead(500, { 'retry-after': '30' }).end('boom');
          return;
        case '/redirect':
          res.writeHead(302, { location: '/big' }).end();
          return;
        case '/busy':
          res.writeHead(429, { 'retry-after': '120' }).end('slow down');
          return;
        case '/unavailable':
          res.writeHead(503, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end();
          return;
        case '/slow':
          return; // never answers
        default:
          res.writeHead(200).end('ok');
      }
    });
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  const at = (path: string, host = '127.0.0.1') => `https://${host}:${port}${path}`;
  const post = (path: string, guard: GuardOptions, extra: Partial<SendRequest> = {}, host?: string) =>
    sendWebhook({ url: at(path, host), body: '{"id":"evt_1"}', headers: {}, ...extra }, guard, { ca });

  t.test('2xx: ok, status, body cut to 2 KiB; request body and headers arrive as given', async (t) => {
    const before = seen.length;
    const result = await sendWebhook(
      {
        url: at('/big?x=1'),
        body: '{"id":"evt_1","type":"ping"}',
        headers: { 'Service-Signature': 't=1,v1=ab', 'Service-Event-Id': 'evt_1', 'Content-Length': '1' },
      },
      permissive,
      { ca },
    );
    t.match(result, { ok: true, status: 200, error: null, retryAfterMs: null });
    t.equal(result.responseBody, 'a'.repeat(2048));
    t.type(result.durationMs, 'number');
    t.equal(seen.length, before + 1);
    const got = seen[seen.length - 1];
    t.equal(got.method, 'POST');
    t.equal(got.path, '/big?x=1');
    t.equal(got.body, '{"id":"evt_1","type":"ping"}');
    t.equal(got.headers['service-signature'], 't=1,v1=ab');
    t.equal(got.headers['service-event-id'], 'evt_1');
    t.equal(got.headers['content-length'], String(Buffer.byteLength('{"id":"evt_1","type":"ping"}')), 'a wrong Content-Length is replaced');
    t.equal(got.headers['content-type'], 'application/json', 'default content type');
    t.equal(got.headers['user-agent'], 'Service-Webhooks/1.0', 'default user agent');

    t.match(await post('/small', permissive), { ok: true, status: 204, responseBody: '' });
    t.equal((await post('/euro', permissive)).responseBody, '€'.repeat(682), 'no half character at the cut');
  });

  t.test('non-2xx: not ok, with status and body', async (t) => {
    t.match(await post('/fail', permissive), { ok: false, status: 500, responseBody: 'boom', error: null, retryAfterMs: null });
  });

  t.test('a redirect is not followed', async (t) => {
    const before = seen.length;
    t.match(await post('/redirect', permissive), { ok: false, status: 302, error: null });
    t.strictSame(
      seen.slice(before).map((s) => s.path),
      ['/redirect'],
    );
  });

  t.test('Retry-After on 429 (seconds) and 503 (HTTP date)', async (t) => {
    t.match(await post('/busy', permissive), { ok: false, status: 429, retryAfterMs: 120_000, responseBody: 'slow down' });
    const unavailable = await post('/unavailable', permissive);
    t.equal(unavailable.status, 503);
    t.ok(unavailable.retryAfterMs !== null && unavailable.retryAfterMs > 85_000 && unavailable.retryAfterMs <= 90_000, `date → ${unavailable.retryAfterMs} ms`);
  });

  t.test('a slow receiver times out', async (t) => {
    const result = await post('/slow', permissive, { timeoutMs: 300 });
    t.match(result, { ok: false, status: null, responseBody: null, error: 'timeout after 300 ms' });
    t.ok(result.durationMs >= 290 && result.durationMs < 3000, `took ${result.durationMs} ms`);
  });

  t.test('the guard refuses an IP literal before connecting', async (t) => {
    const before = seen.length;
    const result = await post('/small', strict);
    t.match(result, { ok: false, status: null, error: /^refused: .*127\.0\.0\.1, a loopback address/ });
    t.equal(seen.length, before, 'the receiver saw nothing');
    t.match(await post('/small', { allowPrivateNetworks: false, allowedCidrs: ['127.0.0.1/32'] }), { ok: true, status: 204 });
    t.match(await post('/small', permissive), { ok: true, status: 204 });
    t.match(await sendWebhook({ url: `http://127.0.0.1:${port}/small`, body: '', headers: {} }, permissive, { ca }), {
      ok: false,
      error: 'refused: url must use https',
    });
    t.match(await sendWebhook({ url: at('/small', 'localhost'), body: '', headers: {} }, strict, { ca }), {
      ok: false,
      error: /refused: .*loopback/,
    });
  });

  t.test('the guard runs in the connection lookup', async (t) => {
    // Refused cases use names of their own: a pooled receiver.test socket would skip the lookup.
    const before = seen.length;
    t.match(
      await post('/small', { ...permissive, lookup: resolvesTo('127.0.0.1') }, {}, 'receiver.test'),
      { ok: true, status: 204 },
      'the injected lookup is where it connects',
    );
    t.match(await post('/small', { ...strict, lookup: resolvesTo('10.0.0.1') }, {}, 'private.test'), {
      ok: false,
      status: null,
      error: 'refused: resolves to 10.0.0.1, a private address',
    });
    t.match(await post('/small', { ...permissive, lookup: resolvesTo('169.254.169.254') }, {}, 'metadata.test'), {
      ok: false,
      error: 'refused: resolves to 169.254.169.254, a cloud metadata address',
    });
    t.match(await post('/small', { ...strict, lookup: resolvesTo('127.0.0.1') }, {}, 'loopback.test'), { ok: false, error: /refused: .*loopback/ });
    t.match(
      await post(
        '/small',
        {
          ...strict,
          lookup: async () => {
            throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
          },
        },
        {},
        'nxdomain.test',
      ),
      { ok: false, error: /refused: could not resolve host nxdomain\.test/ },
    );
    t.equal(seen.length, before + 1, 'only the allowed delivery arrived');
  });

  t.test('keep-alive reuses connections, and a reused one is checked against the current guard', async (t) => {
    const lookup = resolvesTo('127.0.0.1');
    t.match(await post('/small', { ...permissive, lookup }, {}, 'receiver.test'), { ok: true });
    await new Promise((resolve) => setTimeout(resolve, 20)); // let the socket go back to the pool
    const opened = connections;
    t.match(await post('/small', { ...permissive, lookup }, {}, 'receiver.test'), { ok: true });
    t.equal(connections, opened, 'no new TLS connection');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // DNS now claims a public address, but the pooled socket still goes to 127.0.0.1.
    const before = seen.length;
    t.match(await post('/small', { ...strict, lookup: resolvesTo('93.184.216.34') }, {}, 'receiver.test'), {
      ok: false,
      error: 'refused: resolves to 127.0.0.1, a loopback address',
    });
    t.equal(seen.length, before, 'nothing was sent on the pooled socket');
  });

  t.test('connection and TLS failures', async (t) => {
    const closed = https.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    t.match(await sendWebhook({ url: `https://127.0.0.1:${closedPort}/`, body: '', headers: {} }, permissive, { ca }), {
      ok: false,
      status: null,
      error: 'ECONNREFUSED',
    });
    const untrusted = await sendWebhook({ url: at('/small'), body: '', headers: {} }, permissive);
    t.match(untrusted, { ok: false, status: null, error: /SELF_SIGNED|self[- ]signed|certificate/i }, 'certificates are verified');
    t.match(await sendWebhook({ url: 'https://', body: '', headers: {} }, permissive), { ok: false, error: /^refused: url is not a valid URL/ });
  });
});

t.test('a pooled socket the receiver dropped is retried once on a new connection, not booked as a failure', async (t) => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  let requests = 0;
  const perSocket = new WeakMap<object, number>();
  // The second request on a kept-alive connection is dropped without an answer, as a receiver
  // closing an idle connection at the moment it is reused would.
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requests += 1;
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    req.resume();
    req.on('end', () => {
      if (n === 2) req.socket.destroy();
      else res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: pems.cert });
  t.teardown(() => {
    agent.destroy();
    server.closeAllConnections();
    server.close();
  });
  const url = `https://localhost:${(server.address() as { port: number }).port}/hook`;
  const guard = { allowPrivateNetworks: true, allowedCidrs: [] };
  t.equal((await sendWebhook({ url, body: '{}', headers: {} }, guard, { agent })).ok, true);
  const second = await sendWebhook({ url, body: '{}', headers: {} }, guard, { agent });
  t.equal(second.ok, true, `retried on a new connection (error: ${second.error})`);
  t.equal(requests, 3, 'the dropped request, then the retry');
});
