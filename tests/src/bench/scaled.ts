import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from 'nats';
import type { NewEvent } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { readModelCheckpoint } from '@support/projections';
import { LocalFerretDb, withDatabase } from '../support/ferret';
import { LocalNatsServer } from '../support/nats';
import { Receiver } from '../support/receiver';
import { Child, nodeJson, startNode, stop } from './children';
import { request, seed, waitForKey } from './api';
import { KILL_EVERY_MS, killsTable, PHASE_SECONDS, writesUnderKills } from './kills';
import { compare, table } from './load';
import { ALL_PROJECTIONS } from '@support/catalog';

/**
 * `npm run bench -- --topology=scaled`: the scale-out on this machine — the embedded event
 * store file shared by the processes, FerretDB as the read store, NATS as the bus; one api,
 * projector, relay and dispatcher(s) as separate processes. The same HTTP rows as the embedded
 * run (against one api instance: autocannon drives one URL), then what only the scale-out has:
 * projector lag, dispatcher throughput with one and two dispatchers, and rebuild speed on both
 * read stores. A measurement, not a test.
 */

export interface Row {
  name: string;
  connections: number;
  path: string;
  method: 'GET' | 'POST';
  body?: () => string;
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '—');

const HEADER = ['scenario', 'conns', 'svc req/s', 'base req/s', 'ratio', 'svc p99', 'base p99', 'p99 ratio', 'svc non2xx/err'];

/** One HTTP row, measured as the embedded rows are (alternating with the baseline): the same cells as the embedded table. */
const measureRow = async (row: Row, base: string, key: string, baselineUrl: string): Promise<string[]> => {
  const auth = { authorization: `Bearer ${key}` };
  const headers = row.method === 'POST' ? { ...auth, 'content-type': 'application/json' } : auth;
  const { svc, bl, ratio, p99Ratio } = await compare(
    { url: `${base}${row.path}`, method: row.method, headers, uniqueBodies: row.body },
    { url: `${baselineUrl}/x`, method: row.method, headers, uniqueBodies: row.body },
    row.connections,
  );
  return [
    row.name,
    String(row.connections),
    fmt(svc.rps),
    fmt(bl.rps),
    fmt(ratio, 2),
    `${svc.p99} ms`,
    `${bl.p99} ms`,
    `${fmt(p99Ratio, 1)}×`,
    `${svc.non2xx}/${svc.errors}`,
  ];
};

const LAG_RATE = 100; // appends per second
const LAG_SECONDS = 10;
const DISPATCH_EVENTS = 2000;
// FerretDB sends a few dozen a second: fewer events, the same rate.
const DISPATCH_EVENTS_FERRETDB = 640;
const RECEIVER_DELAY_MS = 500;
const REBUILD_EVENTS = 50_000;
/** The rebuild's target, on SQLite and on FerretDB-on-PostgreSQL alike. */
const REBUILD_MIN_RATE = 50_000;
// FerretDB 1.24 on its SQLite backend writes a few hundred documents a second: its rebuild is
// timed on the first 10,000 events of the same log (the events/s is what counts). On
// PostgreSQL it takes the whole log, as SQLite does.
const REBUILD_EVENTS_FERRETDB_SQLITE = 10_000;

/** The machine's CPU time so far (/proc/stat, all cores): busy and total jiffies. */
const cpuTimes = (): { busy: number; total: number } => {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - (fields[4] ?? 0), total };
};
const busyFraction = (a: { busy: number; total: number }, b: { busy: number; total: number }) => (b.busy - a.busy) / Math.max(1, b.total - a.total);
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
const meta = (ws: string) => ({ workspace_id: ws, actor: 'bench', request_id: null, occurred_at: new Date().toISOString() });
const customerEvents = (ws: string, id: string): NewEvent[] => [
  {
    id: randomUUID(),
    type: 'customer.created',
    data: { id, workspace_id: ws, email: `${id}@bench.example.com`, phone: null, name: null, external_id: null, metadata: {}, status: 'active', tags: [] },
    metadata: meta(ws),
  },
  { id: randomUUID(), type: 'customer.updated', data: { id, changes: { name: `Name ${id}` } }, metadata: meta(ws) },
  { id: randomUUID(), type: 'customer.updated', data: { id, changes: { phone: '+15550100' } }, metadata: meta(ws) },
  { id: randomUUID(), type: 'customer.updated', data: { id, changes: { status: 'archived' } }, metadata: meta(ws) },
];
const customerId = (n: number) => `cus_01BENCH${String(n).padStart(18, '0')}`;

/** What `--parts=http,lag,kills,dispatch,rebuild` (the default: all) selects. */
const PARTS = ['http', 'lag', 'kills', 'dispatch', 'rebuild'] as const;
const selectedParts = (): Set<string> => {
  const arg = process.argv.find((a) => a.startsWith('--parts='));
  const parts = arg ? arg.slice('--parts='.length).split(',') : [...PARTS];
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length) throw new Error(`unknown --parts ${unknown.join(',')} (known: ${PARTS.join(',')})`);
  return new Set(parts);
};

export const scaledMain = async (root: string): Promise<void> => {
  const parts = selectedParts();
  const startLoad = Number(os.loadavg()[0].toFixed(2));
  const children: Child[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let ferret: LocalFerretDb | undefined;
  let receiver: Receiver | undefined;
  const service = (name: string) => path.join(root, `services/${name}/dist/main.js`);
  const listening = /listening on (http:\/\/[^\s"]+)/;

  /**
   * One scale-out: its own data directory (the event store file, and the read store file when
   * `mongoUrl` is null: SQLite shared by the processes) and NATS server; a projector, a relay
   * and an api started, a workspace and a key made. More services join with `start`.
   */
  const topology = async (mongoUrl: string | null) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'support-bench-scaled-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const nats = await LocalNatsServer.start();
    cleanups.push(() => nats.destroy());
    const env = {
      DATA_DIR: dataDir,
      ...(mongoUrl ? { MONGODB_URL: mongoUrl } : {}),
      NATS_URL: nats.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_SCALE: '100000',
      AGENT_RERANKER: 'off',
      NODE_EXTRA_CA_CERTS: receiver!.caFile,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const start = async (name: string, instance: string) => {
      const child = await startNode(service(name), { ...env, INSTANCE_ID: instance }, listening, 30_000);
      children.push(child);
      return child;
    };
    const projector = await start('projector', 'projector-1');
    const relay = await start('relay', 'relay-1');
    const base = (await start('api', 'api-1')).match;
    const adminEnv = { DATA_DIR: dataDir, ...(mongoUrl ? { MONGODB_URL: mongoUrl } : {}) };
    const admin = (...args: string[]) => nodeJson(service('admin'), [...args, '--json'], adminEnv);
    const ws = await admin('workspace', 'create', '--name', 'Bench', '--credits', '1000000000');
    const key = String((await admin('key', 'create', '--workspace', String(ws.id), '--name', 'bench')).key);
    await waitForKey(base, key);
    return { dataDir, nats, start, base, key, ws, admin, adminEnv, projector, relay };
  };

  try {
    const baseline = await startNode(path.join(__dirname, 'baseline.js'), {}, /listening on (http:\/\/\S+)/);
    children.push(baseline);
    ferret = await LocalFerretDb.start();
    receiver = await Receiver.start();
    const main = await topology(withDatabase(ferret.url, 'bench'));
    const { dataDir, nats, base, key, ws } = main;
    process.stdout.write('scaled: seeding customers…\n');
    const id = await seed(base, key);
    const conversation = String((await request(`${base}/conversations`, key, {})).body.id);

    // 1. The HTTP rows of the embedded run.
    let sent = 0;
    const rows: Row[] = [
      { name: 'GET /customers/{id}', connections: 50, path: `/customers/${id}`, method: 'GET' },
      { name: 'GET /customers?limit=20', connections: 50, path: '/customers?limit=20', method: 'GET' },
      { name: 'POST /customers', connections: 10, path: '/customers', method: 'POST', body: () => JSON.stringify({ email: `scaled${++sent}@example.com` }) },
      {
        name: 'POST /conversations/{id}/messages',
        connections: 10,
        path: `/conversations/${conversation}/messages`,
        method: 'POST',
        body: () => JSON.stringify({ content: `m${++sent}` }),
      },
    ];
    const httpRows: string[][] = [];
    for (const row of parts.has('http') ? rows : []) {
      process.stdout.write(`scaled: measuring ${row.name}…\n`);
      httpRows.push(await measureRow(row, base, key, baseline.match));
    }
    if (httpRows.length) process.stdout.write(`\n${table([HEADER, ...httpRows])}\n\n`);

    // 2. Projector lag: appends at a fixed rate into the shared log (as an api does), and the
    // moment every read model's checkpoint passed each one, from the projectors' own signals.
    const lag = await (async () => {
      if (!parts.has('lag')) return null;
      process.stdout.write(`scaled: projector lag (${LAG_RATE} appends/s for ${LAG_SECONDS} s)…\n`);
      const nc = await connect({ servers: nats.url });
      const names = ALL_PROJECTIONS.map((p) => readModelCheckpoint(p.collection.name));
      const at = new Map<string, bigint>();
      const pending: { position: bigint; t: number }[] = [];
      const lags: number[] = [];
      const sub = nc.subscribe('signals.checkpoint', {
        callback: (_err, m) => {
          const d = JSON.parse(new TextDecoder().decode(m.data)) as { checkpoint: string; position: string };
          at.set(d.checkpoint, BigInt(d.position.split('/')[0]));
          if (at.size < names.length) return;
          const min = names.reduce((lo, n) => (at.has(n) && at.get(n)! < lo ? at.get(n)! : lo), at.get(names[0]) ?? -1n);
          const now = performance.now();
          while (pending.length && pending[0].position <= min) lags.push(now - pending.shift()!.t);
        },
      });
      await nc.flush();
      const log = new SqliteEventStore(path.join(dataDir, 'events.sqlite'));
      const total = LAG_RATE * LAG_SECONDS;
      const began = performance.now();
      for (let i = 0; i < total; i++) {
        const wait = began + (i * 1000) / LAG_RATE - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const cid = customerId(i);
        const t = performance.now();
        const r = await log.append(`customer-${cid}`, customerEvents(String(ws.id), cid).slice(0, 1), 'no_stream');
        pending.push({ position: r.position.commit, t });
      }
      const deadline = performance.now() + 30_000;
      while (lags.length < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      sub.unsubscribe();
      await nc.close();
      await log.close();
      const sorted = [...lags].sort((a, b) => a - b);
      return { samples: lags.length, of: total, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN };
    })();

    // 3. Writes while processes die (the projector, the relay and an api in turn), against the
    // same writes without kills: what a careful client waits until its write is saved.
    const killed = parts.has('kills')
      ? await (async () => {
          process.stdout.write(`scaled: writes for ${PHASE_SECONDS} s calm, then ${PHASE_SECONDS} s with a SIGKILL every ${KILL_EVERY_MS} ms…\n`);
          return writesUnderKills({ ...main, adminScript: service('admin') });
        })()
      : null;

    // 4. Dispatcher throughput: events waiting on the bus, then 1 (or 2) dispatchers deliver
    // them to a receiver that takes RECEIVER_DELAY_MS per request (a real receiver's latency,
    // which more dispatchers spread over: each keeps up to 50 connections to one receiver).
    receiver.reply = () => ({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
    type Topology = Awaited<ReturnType<typeof topology>>;
    let hooks = 0;
    const dispatch = async ({ base, key, start }: Topology, dispatchers: number, events: number) => {
      const path_ = `/hook/${++hooks}`;
      const endpoint = await request(`${base}/webhook_endpoints`, key, { url: receiver!.url(path_), enabled_events: ['message.created'] });
      if (endpoint.status !== 201) throw new Error(`POST /webhook_endpoints answered ${endpoint.status}`);
      const conversations = await Promise.all(Array.from({ length: 8 }, async () => String((await request(`${base}/conversations`, key, {})).body.id)));
      let n = 0;
      await Promise.all(
        conversations.map(async (c) => {
          while (n < events) {
            n += 1;
            const r = await request(`${base}/conversations/${c}/messages`, key, { content: `dispatch ${n}` });
            if (r.status !== 201) throw new Error(`POST message answered ${r.status}`);
          }
        }),
      );
      const running = await Promise.all(Array.from({ length: dispatchers }, (_, i) => start('dispatcher', `dispatcher-${hooks}-${i}`)));
      // Timed from when every dispatcher listens (start-up is not throughput), with what the
      // machine's cores did meanwhile: at 100% busy the machine, not the dispatchers, is the limit.
      const started = performance.now();
      const before = receiver!.on(path_).length;
      const cpu = cpuTimes();
      const deadline = started + 120_000;
      while (receiver!.on(path_).length < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const seconds = (performance.now() - started) / 1000;
      const busy = busyFraction(cpu, cpuTimes());
      const received = receiver!.on(path_).length;
      await Promise.all(running.map((c) => stop(c.proc)));
      // The next run's events must not also go to this endpoint (that would double its work).
      const removed = await request(`${base}/webhook_endpoints/${String(endpoint.body.id)}`, key, undefined, 'DELETE');
      if (removed.status >= 300) throw new Error(`DELETE /webhook_endpoints answered ${removed.status}`);
      return { dispatchers, events: n, received, seconds, perSecond: (received - before) / seconds, busy };
    };
    const dispatching = async (top: Topology, store: string, events: number) => {
      process.stdout.write(`scaled: dispatcher throughput, read store ${store} (${events} events, receiver ${RECEIVER_DELAY_MS} ms)…\n`);
      const one = await dispatch(top, 1, events);
      const two = await dispatch(top, 2, events);
      process.stdout.write(`scaled: dispatch on ${store}: ${one.perSecond.toFixed(0)}/s with one, ${two.perSecond.toFixed(0)}/s with two\n`);
      return { store, one, two, ratio: two.perSecond / one.perSecond };
    };
    // On both read stores: on FerretDB 1.24 (SQLite backend) every update scans its collection,
    // so there the store, not the dispatchers, sets the pace; the SQLite file shared by the
    // processes shows what the dispatchers themselves scale to on this machine.
    const dispatchRuns = async () => [
      await dispatching(main, `FerretDB (${ferret!.backend})`, DISPATCH_EVENTS_FERRETDB),
      await dispatching(await topology(null), 'SQLite (shared file)', DISPATCH_EVENTS),
    ];
    const dispatched = parts.has('dispatch') ? await dispatchRuns() : null;

    // 5. Rebuild speed on both read stores, from one log of REBUILD_EVENTS events.
    const rebuild = async (events: number, extra: Record<string, string>) => {
      const rebuildDir = await mkdtemp(path.join(tmpdir(), 'support-bench-rebuild-'));
      const log = new SqliteEventStore(path.join(rebuildDir, 'events.sqlite'));
      for (let i = 0; i < events / 4; i++) await log.append(`customer-${customerId(i)}`, customerEvents('ws_rebuild', customerId(i)), 'no_stream');
      await log.close();
      const r = await nodeJson(service('admin'), ['projections', 'rebuild', '--json'], { DATA_DIR: rebuildDir, ...extra });
      await rm(rebuildDir, { recursive: true, force: true });
      return { events: Number(r.events), ms: Number(r.ms), perSecond: Number(r.events) / (Number(r.ms) / 1000) };
    };
    const rebuilding = async () => {
      const onFerretDb = ferret!.backend === 'sqlite' ? REBUILD_EVENTS_FERRETDB_SQLITE : REBUILD_EVENTS;
      process.stdout.write(`scaled: projections rebuild of ${REBUILD_EVENTS} events on SQLite, ${onFerretDb} on FerretDB…\n`);
      const sqlite = await rebuild(REBUILD_EVENTS, {});
      process.stdout.write(`scaled: rebuild on SQLite: ${sqlite.events} events in ${sqlite.ms} ms\n`);
      const ferretdb = await rebuild(onFerretDb, { MONGODB_URL: withDatabase(ferret!.url, 'bench_rebuild') });
      return { sqlite, ferretdb };
    };
    const rebuilt = parts.has('rebuild') ? await rebuilding() : null;

    const sections = [
      `topology: scaled — event store: SQLite file shared by the processes; read store: FerretDB 1.24 (${ferret.backend} backend${ferret.backend === 'sqlite' ? '; FERRETDB_POSTGRESQL_URL runs it on PostgreSQL' : ''}); bus: NATS JetStream; api ×1, projector ×1, relay ×1 (${os.cpus().length} cores)`,
      httpRows.length ? table([HEADER, ...httpRows]) : null,
      lag &&
        table([
          ['projector lag (append → every read model checkpoint)', 'samples', 'p50', 'p99', 'max'],
          [`${LAG_RATE} appends/s for ${LAG_SECONDS} s`, `${lag.samples}/${lag.of}`, `${fmt(lag.p50)} ms`, `${fmt(lag.p99)} ms`, `${fmt(lag.max)} ms`],
        ]),
      killed && killsTable(killed),
      dispatched &&
        table([
          ['read store', 'dispatchers', 'events', 'delivered', 'seconds', 'deliveries/s', 'cores busy', 'check'],
          ...dispatched.flatMap((d) => [
            [d.store, '1', String(d.one.events), String(d.one.received), fmt(d.one.seconds, 1), fmt(d.one.perSecond), `${fmt(d.one.busy * 100)}%`, '—'],
            [
              d.store,
              '2',
              String(d.two.events),
              String(d.two.received),
              fmt(d.two.seconds, 1),
              fmt(d.two.perSecond),
              `${fmt(d.two.busy * 100)}%`,
              `${fmt(d.ratio, 2)}× (target ≥ 1.7×): ${d.ratio >= 1.7 ? 'PASS' : 'BELOW TARGET'}`,
            ],
          ]),
        ]),
      rebuilt &&
        table([
          ['projections rebuild', 'events', 'ms', 'events/s', 'check'],
          [
            'SQLite (embedded)',
            String(rebuilt.sqlite.events),
            String(rebuilt.sqlite.ms),
            fmt(rebuilt.sqlite.perSecond),
            rebuilt.sqlite.perSecond >= REBUILD_MIN_RATE ? 'PASS (≥ 50k)' : 'BELOW TARGET (≥ 50k)',
          ],
          [
            `FerretDB (${ferret.backend})`,
            String(rebuilt.ferretdb.events),
            String(rebuilt.ferretdb.ms),
            fmt(rebuilt.ferretdb.perSecond),
            ferret.backend === 'sqlite' ? '—' : rebuilt.ferretdb.perSecond >= REBUILD_MIN_RATE ? 'PASS (≥ 50k)' : 'BELOW TARGET (≥ 50k)',
          ],
        ]),
    ];
    process.stdout.write(`\n${sections.filter((x) => x !== null).join('\n\n')}\n\n`);
    const loadavg = { start: startLoad, end: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length };
    process.stdout.write(
      `BENCH_JSON ${JSON.stringify({ topology: 'scaled', http: httpRows, lag, kills: killed, dispatch: dispatched, rebuild: rebuilt, loadavg })}\n`,
    );
  } finally {
    await Promise.all(children.map((c) => stop(c.proc)));
    await receiver?.close();
    await ferret?.destroy();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
};
