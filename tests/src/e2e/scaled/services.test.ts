import { join } from 'node:path';
import t from 'tap';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { client } from '../../support/client';
import { scrape } from '../../support/prometheus';
import { LocalNatsServer, natsServerInstalled } from '../../support/nats';
import { removeDir, tempDir } from '../../support/service';
import { until } from '../../support/wait';
import { tenant } from '../../support/workspace';
import { activeHolders, allReady, health, ready, startInstance, type Instance } from './topology';

// Each service alone, as separate processes on one machine: the embedded event and read stores
// (files shared by the processes) and NATS. In CI nats-server is installed: never skipped there.
const skip = natsServerInstalled() || process.env.CI === 'true' ? false : 'nats-server not installed: the multi-process services test is not run';

const TTL_MS = 6000;

/** When the leases `holder` holds expire (epoch ms), read from the shared read-store file. */
const expiries = async (dataDir: string, holder: string): Promise<number[]> => {
  const reads = new SqliteReadStore(join(dataDir, 'readstore.sqlite'));
  try {
    const docs = (await reads.collection<{ id: string; holder: string | null; expires_at: number }>({ name: 'leases' }).find({})).items;
    return docs.filter((d) => d.holder === holder).map((d) => d.expires_at);
  } finally {
    await reads.close();
  }
};

t.test('each service runs alone: health, readiness, leases, read-your-writes across processes, SIGTERM', { skip }, async (t) => {
  const nats = await LocalNatsServer.start();
  const dataDir = tempDir('scaled-');
  // A lease TTL long enough that a crashed holder's leases are taken over well before they expire.
  const env = { NATS_URL: nats.url, LEASE_TTL_MS: String(TTL_MS), RATE_LIMIT_SCALE: '100' };
  const running: Instance[] = [];
  t.teardown(async () => {
    await Promise.all(running.map((i) => i.stop('SIGKILL')));
    await nats.destroy();
    removeDir(dataDir);
  });
  const start = async (...args: Parameters<typeof startInstance>) => {
    const i = await startInstance(...args);
    running.push(i);
    return i;
  };
  const projectors = [await start('projector', 'projector-a', dataDir, env), await start('projector', 'projector-b', dataDir, env)];
  const relays = [await start('relay', 'relay-a', dataDir, env), await start('relay', 'relay-b', dataDir, env)];
  const monitor = await start('sla-monitor', 'sla-a', dataDir, env);
  const dispatcher = await start('dispatcher', 'dispatcher-a', dataDir, env);
  const apis = [await start('api', 'api-a', dataDir, env), await start('api', 'api-b', dataDir, env)];
  await allReady(running);

  const body = (await ready(dispatcher)).body;
  t.strictSame(
    { status: body.status, instance: body.instance, role: body.role, engines: body.engines, lagging: body.lagging },
    { status: 'ready', instance: 'dispatcher-a', role: 'dispatcher', engines: { event_store: 'ok', read_store: 'ok', bus: 'ok' }, lagging: [] },
  );
  t.equal((await client(dispatcher.origin).get('/v1/customers')).status, 404, 'a service without the API serves only its health');

  // One relay and one SLA monitor active; the read models split between the two projectors.
  await until(async () => (await activeHolders(relays, 'relay')).length === 1, 10_000, 100, 'one active relay');
  const [active0] = await activeHolders(relays, 'relay');
  t.strictSame((await health(monitor)).leases, [{ name: 'sla-monitor', role: 'active' }]);
  await until(
    async () => {
      const held = await Promise.all(projectors.map(async (p) => (await health(p)).leases.filter((l) => l.role === 'active').length));
      return held[0] === 6 && held[1] === 6;
    },
    10_000,
    100,
    'six read models each',
  );

  // A write through one API is readable at once through the other (its append was projected
  // by another process before the write answered).
  const ws = await tenant(apis[0].baseUrl, dataDir);
  const other = client(apis[1].baseUrl, ws.key);
  for (let i = 0; i < 10; i++) {
    const created = await ws.api.post('/customers', { email: `c${i}@example.com` });
    t.equal(created.status, 201);
    const seen = await other.get(`/customers/${created.body.id}`);
    t.equal(seen.status, 200, `customer ${i} readable through the other API`);
  }

  // GET /metrics on every service: each shows what it runs.
  const metricsOf = async (i: Instance) => scrape(i.origin);
  const [projectorMetrics, relayMetrics, dispatcherMetrics, monitorMetrics, apiMetrics] = await Promise.all(
    [projectors[0], ...relays.filter((r) => r.name === (active0 ?? '')), dispatcher, monitor, apis[0]].map(metricsOf),
  );
  t.equal(projectorMetrics.series('support_lease_active').length, 12, 'a projector: a lease per read model');
  t.ok(projectorMetrics.series('support_consumer_position').length >= 6, "and its read models' positions");
  t.ok(
    projectorMetrics.series('support_consumer_events_total').some((s) => s.value > 0),
    'which handled the writes',
  );
  t.equal(relayMetrics.value('support_lease_active', { lease: 'relay' }), 1, 'the active relay');
  t.ok(relayMetrics.has('support_consumer_lag_seconds', { consumer: 'relay' }));
  t.ok(dispatcherMetrics.has('support_webhook_deliveries_pending'), 'the dispatcher: deliveries waiting');
  t.ok(dispatcherMetrics.has('support_consumer_lag_seconds', { consumer: 'dispatcher' }), 'and its intake from the bus');
  const intake = ((await client(dispatcher.origin).get('/healthz')).body as { consumers: { name: string; status: string }[] }).consumers;
  t.match(intake, [{ name: 'dispatcher', status: 'running', failures: 0 }], "the dispatcher's health shows its intake");
  t.equal(monitorMetrics.value('support_lease_active', { lease: 'sla-monitor' }), 1, 'the SLA monitor');
  t.ok(apiMetrics.value('http_server_request_duration_seconds_count', { method: 'POST', route: '/v1/customers', status: '201' }) >= 5, 'an API: its requests');
  t.ok(apiMetrics.value('support_eventstore_append_duration_seconds_count', { operation: 'append_many', outcome: 'ok' }) >= 5, 'and its appends');

  // The active relay is SIGKILLed: the standby takes over before the dead one's lease expires
  // (it missed a renewal and NATS has nobody answering for it), not a TTL later.
  const [active] = await activeHolders(relays, 'relay');
  const dead = relays.find((r) => r.name === active)!;
  const standby = relays.find((r) => r.name !== active)!;
  const kill = async (i: Instance) => {
    await i.stop('SIGKILL');
    running.splice(running.indexOf(i), 1);
    return { at: Date.now(), expiry: Math.min(...(await expiries(dataDir, i.name))) };
  };
  const relayKilled = await kill(dead);
  await until(async () => (await activeHolders([standby], 'relay')).length === 1, 10_000, 100, 'the standby relay took over');
  const relayTakenAt = Date.now();
  t.comment(`relay takeover after ${relayTakenAt - relayKilled.at} ms (lease TTL ${TTL_MS} ms)`);
  t.ok(relayTakenAt < relayKilled.expiry, `the standby relay took over ${relayKilled.expiry - relayTakenAt} ms before the dead one's lease would have expired`);

  // A projector is SIGKILLed: the other one holds all twelve read models before the dead one's leases expire.
  const projectorKilled = await kill(projectors[1]);
  await until(async () => (await health(projectors[0])).leases.every((l) => l.role === 'active'), 10_000, 100, 'the survivor holds every read model');
  const projectorTakenAt = Date.now();
  t.comment(`read models taken over after ${projectorTakenAt - projectorKilled.at} ms`);
  t.ok(
    projectorTakenAt < projectorKilled.expiry,
    `taken over ${projectorKilled.expiry - projectorTakenAt} ms before the dead projector's leases would have expired`,
  );
  const after = await ws.api.post('/customers', { email: 'after-the-kill@example.com' });
  t.equal(after.status, 201, 'a write after the takeover is projected and answered');

  // SIGTERM: every process finishes its work and exits 0.
  const codes = await Promise.all(running.splice(0).map(async (i) => [i.name, await i.stop('SIGTERM')] as const));
  t.strictSame(
    codes.filter(([, code]) => code !== 0),
    [],
    'every service exits 0 on SIGTERM',
  );
});
