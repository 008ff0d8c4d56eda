import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Application, jsonLogger, loadConfig, openEngines } from '@support/application';
import { createHttpApp } from '@support/api';
import { client } from '../support/client';
import { removeDir, tempDir } from '../support/service';
import { API_VERSION, apiOf, serve } from '@support/http';
import { CATALOG } from '@support/catalog';

// GET /readyz says whether to send the process traffic: every engine it needs answers, and no
// consumer lags. An engine that cannot be reached turns it 503, naming the engine, while
// /healthz (alive) stays 200. The API serves without the bus (it carries only checkpoint
// signals): a NATS blip must not take every api instance out of its load balancer; a worker
// that takes its work from the bus is not ready without it.
t.test('an unreachable engine makes /readyz 503, naming it; /healthz stays 200; the API needs no bus', async (t) => {
  const dir = tempDir('ready-');
  const config = { ...loadConfig({}), dataDir: dir, port: 0, host: '127.0.0.1' };
  const engines = openEngines(config);
  let busDown = false;
  let readsDown = false;
  const ping = engines.bus.ping.bind(engines.bus);
  engines.bus.ping = () => (busDown ? Promise.reject(new Error('bus unreachable')) : ping());
  const checkpoint = engines.reads.getCheckpoint.bind(engines.reads);
  engines.reads.getCheckpoint = (name) => (readsDown ? Promise.reject(new Error('read store unreachable')) : checkpoint(name));
  const lines: string[] = [];
  const app = new Application({ catalog: CATALOG, config, log: jsonLogger('info', {}, (l) => lines.push(l)), engines, projector: false });
  const server = createHttpApp(apiOf(app)).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    server.close();
    await app.stop();
    removeDir(dir);
  });
  const api = client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  // What the API's /readyz answers, whole, with these engines.
  const apiAnswer = (status: 200 | 503, engines: Record<string, string>) => ({
    status,
    body: { status: status === 200 ? 'ready' : 'not_ready', role: 'api', instance: config.instanceId, version: API_VERSION, engines, lagging: [] },
  });
  const ready = await api.get('/readyz');
  t.strictSame({ status: ready.status, body: ready.body }, apiAnswer(200, { event_store: 'ok', read_store: 'ok', bus: 'ok' }));
  busDown = true;
  const noBus = await api.get('/readyz');
  t.strictSame(
    { status: noBus.status, body: noBus.body },
    apiAnswer(200, { event_store: 'ok', read_store: 'ok', bus: 'bus unreachable' }),
    'the API serves without the bus, and says it is missing',
  );
  // A process without the API (a relay, a dispatcher) takes its work from the bus.
  const worker = await serve(app, { role: 'relay' });
  t.teardown(() => worker.server.close());
  const relay = await client(worker.baseUrl).get('/readyz');
  t.strictSame([relay.status, relay.body.status, relay.body.engines.bus], [503, 'not_ready', 'bus unreachable'], 'a worker is not ready without it');
  busDown = false;
  readsDown = true;
  const down = await api.get('/readyz');
  t.strictSame({ status: down.status, body: down.body }, apiAnswer(503, { event_store: 'ok', read_store: 'read store unreachable', bus: 'ok' }));
  t.equal((await api.get('/healthz')).status, 200, 'alive all the same');
  t.equal((await api.get('/readyz')).status, 503, 'asked again');
  readsDown = false;
  t.equal((await api.get('/readyz')).status, 200);
  // Each change is logged once, not each probe's 503 (a line every few seconds per instance).
  const logged = lines.map((l) => JSON.parse(l) as { level: string; msg: string; role?: string });
  t.strictSame(
    logged.filter((l) => /ready/.test(l.msg)).map((l) => [l.level, l.msg, l.role]),
    [
      ['warn', 'not ready', 'relay'],
      ['warn', 'not ready', 'api'],
      ['info', 'ready again', 'api'],
    ],
  );
  t.strictSame(
    logged.filter((l) => l.msg === 'request failed'),
    [],
    "a probe's 503 is not a failed request",
  );
});
