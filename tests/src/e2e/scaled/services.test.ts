import t from 'tap';
import { client } from '../../support/client';
import { LocalNatsServer, natsServerInstalled } from '../../support/nats';
import { removeDir, tempDir } from '../../support/service';
import { until } from '../../support/wait';
import { tenant } from '../../support/workspace';
import { activeHolders, allReady, health, ready, startInstance, type Instance } from './topology';

// Each service alone, as separate processes on one machine: the embedded event and read stores
// (files shared by the processes) and NATS. In CI nats-server is installed: never skipped there.
const skip = natsServerInstalled() || process.env.CI === 'true' ? false : 'nats-server not installed: the multi-process services test is not run';

t.test('each service runs alone: health, readiness, leases, read-your-writes across processes, SIGTERM', { skip }, async (t) => {
  const nats = await LocalNatsServer.start();
  const dataDir = tempDir('scaled-');
  const env = { NATS_URL: nats.url, LEASE_TTL_MS: '1500', RATE_LIMIT_SCALE: '100' };
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

  // The active relay dies: the standby takes over within the lease TTL (1.5 s) and a round.
  const [active] = await activeHolders(relays, 'relay');
  const dead = relays.find((r) => r.name === active)!;
  const standby = relays.find((r) => r.name !== active)!;
  await dead.stop('SIGKILL');
  const killedAt = Date.now();
  running.splice(running.indexOf(dead), 1);
  await until(async () => (await activeHolders([standby], 'relay')).length === 1, 10_000, 100, 'the standby relay took over');
  t.comment(`relay takeover after ${Date.now() - killedAt} ms (lease TTL 1500 ms)`);

  // SIGTERM: every process finishes its work and exits 0.
  const codes = await Promise.all(running.splice(0).map(async (i) => [i.name, await i.stop('SIGTERM')] as const));
  t.strictSame(
    codes.filter(([, code]) => code !== 0),
    [],
    'every service exits 0 on SIGTERM',
  );
});
