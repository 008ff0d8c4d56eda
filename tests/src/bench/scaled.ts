import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from 'nats';
import type { NewEvent } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { ALL_PROJECTIONS, readModelCheckpoint } from '@support/projections';
import { LocalFerretDb, withDatabase } from '../support/ferret';
import { LocalNatsServer } from '../support/nats';
import { Receiver } from '../support/receiver';
import { Child, nodeJson, startNode, stop } from './children';

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

export interface Tools {
  root: string;
  /** Runs one row against the service and the baseline: the same cells as the embedded table. */
  measureRow(row: Row, base: string, key: string, baseline: string): Promise<string[]>;
  header: string[];
  table(rows: string[][]): string;
  seed(base: string, key: string): Promise<string>;
  waitForKey(base: string, key: string): Promise<void>;
  request(url: string, key: string, body?: unknown, method?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

const LAG_RATE = 100; // appends per second
const LAG_SECONDS = 10;
const DISPATCH_MESSAGES = 640;
const RECEIVER_DELAY_MS = 500;
const REBUILD_EVENTS = 50_000;
// FerretDB 1.24 on SQLite applies a bulk write one document at a time, well under 1k/s here:
// its rebuild is timed on the first 10,000 events of the same log (the events/s is what counts).
const REBUILD_EVENTS_FERRETDB = 10_000;

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

export const scaledMain = async (tools: Tools): Promise<void> => {
  const startLoad = Number(os.loadavg()[0].toFixed(2));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'support-bench-scaled-'));
  const children: Child[] = [];
  let nats: LocalNatsServer | undefined;
  let ferret: LocalFerretDb | undefined;
  let receiver: Receiver | undefined;
  const service = (name: string) => path.join(tools.root, `services/${name}/dist/main.js`);
  try {
    const baseline = await startNode(path.join(__dirname, 'baseline.js'), {}, /listening on (http:\/\/\S+)/);
    children.push(baseline);
    nats = await LocalNatsServer.start();
    ferret = await LocalFerretDb.start();
    receiver = await Receiver.start();
    const mongoUrl = withDatabase(ferret.url, 'bench');
    const env = {
      DATA_DIR: dataDir,
      MONGODB_URL: mongoUrl,
      NATS_URL: nats.url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_SCALE: '100000',
      LEASE_TTL_MS: '2000',
      AGENT_RERANKER: 'off',
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    const listening = /listening on (http:\/\/[^\s"]+)/;
    const start = async (name: string, instance: string) => {
      const child = await startNode(service(name), { ...env, INSTANCE_ID: instance }, listening, 30_000);
      children.push(child);
      return child;
    };
    await start('projector', 'projector-1');
    await start('relay', 'relay-1');
    const api = await start('api', 'api-1');
    const base = api.match;
    const admin = (...args: string[]) => nodeJson(service('admin'), [...args, '--json'], { DATA_DIR: dataDir, MONGODB_URL: mongoUrl });
    const ws = await admin('workspace', 'create', '--name', 'Bench', '--credits', '1000000000');
    const key = String((await admin('key', 'create', '--workspace', String(ws.id), '--name', 'bench')).key);
    await tools.waitForKey(base, key);
    process.stdout.write('scaled: seeding customers…\n');
    const id = await tools.seed(base, key);
    const conversation = String((await tools.request(`${base}/conversations`, key, {})).body.id);

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
    for (const row of rows) {
      process.stdout.write(`scaled: measuring ${row.name}…\n`);
      httpRows.push(await tools.measureRow(row, base, key, baseline.match));
    }
    process.stdout.write(`\n${tools.table([tools.header, ...httpRows])}\n\n`);

    // 2. Projector lag: appends at a fixed rate into the shared log (as an api does), and the
    // moment every read model's checkpoint passed each one, from the projectors' own signals.
    process.stdout.write(`scaled: projector lag (${LAG_RATE} appends/s for ${LAG_SECONDS} s)…\n`);
    const lag = await (async () => {
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

    // 3. Dispatcher throughput: events waiting on the bus, then 1 (or 2) dispatchers deliver
    // them to a receiver that takes RECEIVER_DELAY_MS per request (a real receiver's latency,
    // which is what more dispatchers, with 64 attempts in flight each, spread over).
    receiver.reply = () => ({ status: 200, body: 'ok', delayMs: RECEIVER_DELAY_MS });
    const dispatch = async (dispatchers: number) => {
      const path_ = `/hook/${dispatchers}`;
      const endpoint = await tools.request(`${base}/webhook_endpoints`, key, { url: receiver!.url(path_), enabled_events: ['message.created'] });
      if (endpoint.status !== 201) throw new Error(`POST /webhook_endpoints answered ${endpoint.status}`);
      const conversations = await Promise.all(Array.from({ length: 8 }, async () => String((await tools.request(`${base}/conversations`, key, {})).body.id)));
      let n = 0;
      await Promise.all(
        conversations.map(async (c) => {
          while (n < DISPATCH_MESSAGES) {
            n += 1;
            const r = await tools.request(`${base}/conversations/${c}/messages`, key, { content: `dispatch ${n}` });
            if (r.status !== 201) throw new Error(`POST message answered ${r.status}`);
          }
        }),
      );
      const started = performance.now();
      const running = await Promise.all(Array.from({ length: dispatchers }, (_, i) => start('dispatcher', `dispatcher-${dispatchers}-${i}`)));
      const deadline = started + 120_000;
      while (receiver!.on(path_).length < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const seconds = (performance.now() - started) / 1000;
      const received = receiver!.on(path_).length;
      await Promise.all(running.map((c) => stop(c.proc)));
      // The next run's events must not also go to this endpoint (that would double its work).
      const removed = await tools.request(`${base}/webhook_endpoints/${String(endpoint.body.id)}`, key, undefined, 'DELETE');
      if (removed.status >= 300) throw new Error(`DELETE /webhook_endpoints answered ${removed.status}`);
      return { dispatchers, events: n, received, seconds, perSecond: received / seconds };
    };
    process.stdout.write(`scaled: dispatcher throughput (${DISPATCH_MESSAGES} events, receiver ${RECEIVER_DELAY_MS} ms)…\n`);
    const one = await dispatch(1);
    const two = await dispatch(2);
    process.stdout.write(
      `scaled: lag p50 ${lag.p50.toFixed(0)} ms, p99 ${lag.p99.toFixed(0)} ms; dispatch ${one.perSecond.toFixed(0)}/s with one, ${two.perSecond.toFixed(0)}/s with two\n`,
    );

    // 4. Rebuild speed on both read stores, from one log of REBUILD_EVENTS events.
    process.stdout.write(`scaled: projections rebuild of ${REBUILD_EVENTS} events on SQLite, ${REBUILD_EVENTS_FERRETDB} on FerretDB…\n`);
    const rebuild = async (events: number, extra: Record<string, string>) => {
      const rebuildDir = await mkdtemp(path.join(tmpdir(), 'support-bench-rebuild-'));
      const log = new SqliteEventStore(path.join(rebuildDir, 'events.sqlite'));
      for (let i = 0; i < events / 4; i++) await log.append(`customer-${customerId(i)}`, customerEvents('ws_rebuild', customerId(i)), 'no_stream');
      await log.close();
      const r = await nodeJson(service('admin'), ['projections', 'rebuild', '--json'], { DATA_DIR: rebuildDir, ...extra });
      await rm(rebuildDir, { recursive: true, force: true });
      return { events: Number(r.events), ms: Number(r.ms), perSecond: Number(r.events) / (Number(r.ms) / 1000) };
    };
    const rebuildSqlite = await rebuild(REBUILD_EVENTS, {});
    process.stdout.write(`scaled: rebuild on SQLite: ${rebuildSqlite.events} events in ${rebuildSqlite.ms} ms\n`);
    const rebuildFerret = await rebuild(REBUILD_EVENTS_FERRETDB, { MONGODB_URL: withDatabase(ferret.url, 'bench_rebuild') });

    const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '—');
    const ratio = two.perSecond / one.perSecond;
    const text = [
      `topology: scaled — event store: SQLite file shared by the processes; read store: FerretDB 1.24 (SQLite backend); bus: NATS JetStream; api ×1, projector ×1, relay ×1 (${os.cpus().length} cores)`,
      '',
      tools.table([tools.header, ...httpRows]),
      '',
      tools.table([
        ['projector lag (append → every read model checkpoint)', 'samples', 'p50', 'p99', 'max'],
        [`${LAG_RATE} appends/s for ${LAG_SECONDS} s`, `${lag.samples}/${lag.of}`, `${fmt(lag.p50)} ms`, `${fmt(lag.p99)} ms`, `${fmt(lag.max)} ms`],
      ]),
      '',
      tools.table([
        ['dispatchers', 'events', 'delivered', 'seconds', 'deliveries/s', 'check'],
        ['1', String(one.events), String(one.received), fmt(one.seconds, 1), fmt(one.perSecond), '—'],
        [
          '2',
          String(two.events),
          String(two.received),
          fmt(two.seconds, 1),
          fmt(two.perSecond),
          `${fmt(ratio, 2)}× (target ≥ 1.7×): ${ratio >= 1.7 ? 'PASS' : 'BELOW TARGET'}`,
        ],
      ]),
      '',
      tools.table([
        ['projections rebuild', 'events', 'ms', 'events/s', 'check'],
        [
          'SQLite (embedded)',
          String(rebuildSqlite.events),
          String(rebuildSqlite.ms),
          fmt(rebuildSqlite.perSecond),
          rebuildSqlite.perSecond >= 50_000 ? 'PASS (≥ 50k)' : 'BELOW TARGET (≥ 50k)',
        ],
        ['FerretDB', String(rebuildFerret.events), String(rebuildFerret.ms), fmt(rebuildFerret.perSecond), '—'],
      ]),
    ].join('\n');
    process.stdout.write(`\n${text}\n\n`);
    const loadavg = { start: startLoad, end: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length };
    process.stdout.write(
      `BENCH_JSON ${JSON.stringify({ topology: 'scaled', http: httpRows, lag, dispatch: { one, two, ratio }, rebuild: { sqlite: rebuildSqlite, ferretdb: rebuildFerret }, loadavg })}\n`,
    );
  } finally {
    await Promise.all(children.map((c) => stop(c.proc)));
    await receiver?.close();
    await ferret?.destroy();
    await nats?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
};
