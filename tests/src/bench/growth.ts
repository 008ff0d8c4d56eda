import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { customersOf } from '@support/customers';
import { conversationsOf } from '@support/conversations';
import { readFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { Application, loadConfig, silentLogger } from '@support/application';
import { benchArticles, importArticles } from './agent';
import { waitForKey } from './api';
import { nodeJson, startNode, stop } from './children';
import { Load, measure, Side, table } from './load';
import { CATALOG } from '@support/catalog';

/**
 * `npm run bench -- --growth[=SCALE]`: how the embedded default's costs grow with the data. The
 * same figures on a small workspace and on a grown one (at SCALE 1: 100k customers, 20k
 * conversations holding 500k messages, 1M events in the log; the small one is a hundredth of
 * that), each checked against its target: within 1.5× of the small figure, but for the rebuild
 * and the start-up, which may grow linearly with the log. SCALE 0.1 is a quick look.
 */

interface Sizes {
  customers: number;
  conversations: number;
  messages: number;
  /** The log's length: customer updates fill it up to this once the rest is written. */
  events: number;
}

const FULL: Sizes = { customers: 100_000, conversations: 20_000, messages: 500_000, events: 1_000_000 };
const SMALL_FRACTION = 0.01;
const ARTICLES = 200;
const CONCURRENCY = 64;
const WITHIN = 1.5;
const REBUILD_TARGET = 50_000;

const sized = (scale: number): Sizes => ({
  customers: Math.max(100, Math.round(FULL.customers * scale)),
  conversations: Math.max(20, Math.round(FULL.conversations * scale)),
  messages: Math.max(500, Math.round(FULL.messages * scale)),
  events: Math.max(1000, Math.round(FULL.events * scale)),
});

const email = (n: number) => `growth${n}@example.com`;

/** Runs `work(i)` for i in [0, n), `CONCURRENCY` at a time, printing progress every tenth. */
const inParallel = async (what: string, n: number, work: (i: number) => Promise<void>) => {
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        await work(next++);
        if (++done % Math.max(1, Math.floor(n / 10)) === 0 || done === n)
          process.stdout.write(`growth:   ${what} ${done}/${n} (${Math.round(done / ((performance.now() - started) / 1000))}/s)\n`);
      }
    }),
  );
};

/**
 * Writes the workspace's data through the application's own commands (deciders, reservations,
 * group commit), in this process, with the service stopped: what the API would have written,
 * minutes faster than over HTTP. Returns the ids the measurements use.
 */
const seed = async (dataDir: string, workspaceId: string, sizes: Sizes) => {
  const app = new Application({ catalog: CATALOG, config: loadConfig({ ...process.env, DATA_DIR: dataDir }), log: silentLogger, projector: false });
  await app.start();
  try {
    const ctx = { workspaceId, actor: 'growth-seed', requestId: 'growth-seed' };
    const customers: string[] = new Array<string>(sizes.customers);
    await inParallel('customers', sizes.customers, async (i) => {
      customers[i] = (await customersOf(app).commands.createOrMatch(ctx, { email: email(i), name: `Growth ${i}` })).id;
    });
    const conversations: string[] = new Array<string>(sizes.conversations);
    await inParallel('conversations', sizes.conversations, async (i) => {
      conversations[i] = (await conversationsOf(app).commands.create(ctx, { customer: { email: email((i * 5) % sizes.customers) } })).id;
    });
    await inParallel('messages', sizes.messages, async (i) => {
      await conversationsOf(app).commands.postMessage(ctx, conversations[i % sizes.conversations], {
        content: `Growth message ${i}: how do I reset my password?`,
      });
    });
    const written = Number((await app.engines.events.head()).commit);
    const updates = Math.max(0, sizes.events - written);
    await inParallel('customer updates (to fill the log)', updates, async (i) => {
      await customersOf(app).commands.update(ctx, customers[i % sizes.customers], { tags: [`t${i % 7}`, `batch-${Math.floor(i / sizes.customers)}`] });
    });
    return { customers, conversations, events: Number((await app.engines.events.head()).commit) };
  } finally {
    await app.stop();
  }
};

const dirBytes = async (dir: string): Promise<number> => {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? await dirBytes(p) : (await stat(p)).size;
  }
  return total;
};

const rssBytes = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
};

/** Polls /readyz until it answers 200 (ten minutes at most). */
const untilReady = async (origin: string) => {
  const deadline = Date.now() + 600_000;
  while ((await fetch(`${origin}/readyz`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('/readyz not 200 within ten minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
};

interface Figures {
  sizes: Sizes;
  events: number;
  seedSeconds: number;
  rebuild: { events: number; ms: number; perSecond: number };
  bytesPer1kEvents: number;
  /** The first start: to /readyz 200, its consumers caught up with a log written while it was down. */
  catchUpMs: number;
  startupMs: number;
  rates: Record<string, Side>;
  rssBytes: number;
}

const measureAt = async (root: string, label: string, sizes: Sizes): Promise<Figures> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'support-growth-'));
  const scratch = await mkdtemp(path.join(tmpdir(), 'support-growth-files-'));
  const env = { DATA_DIR: dataDir };
  const admin = path.join(root, 'services/admin/dist/main.js');
  try {
    process.stdout.write(
      `growth: ${label}: seeding ${sizes.customers} customers, ${sizes.conversations} conversations, ${sizes.messages} messages, up to ${sizes.events} events…\n`,
    );
    const ws = await nodeJson(admin, ['workspace', 'create', '--name', `Growth ${label}`, '--credits', '1000000000', '--json'], env);
    const key = String((await nodeJson(admin, ['key', 'create', '--workspace', String(ws.id), '--name', 'growth', '--json'], env)).key);
    // The articles' file goes elsewhere: the data directory's size is one of the figures.
    await importArticles(admin, env, scratch, String(ws.id), benchArticles(ARTICLES), async () => Number.MAX_SAFE_INTEGER);
    const seedStarted = performance.now();
    const seeded = await seed(dataDir, String(ws.id), sizes);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    process.stdout.write(`growth: ${label}: projections rebuild of ${seeded.events} events…\n`);
    const r = await nodeJson(admin, ['projections', 'rebuild', '--json'], env);
    const rebuild = { events: Number(r.events), ms: Number(r.ms), perSecond: Number(r.events) / (Number(r.ms) / 1000) };
    const bytesPer1kEvents = (await dirBytes(dataDir)) / (seeded.events / 1000);

    const start = async () => {
      const started = performance.now();
      const child = await startNode(
        path.join(root, 'services/standalone/dist/main.js'),
        { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_SCALE: '100000', AGENT_RERANKER: 'off' },
        /listening on (http:\/\/\S+?\/v1)/,
        600_000,
      );
      return { child, ms: performance.now() - started };
    };
    // The first start catches up the consumers that never ran on this log (the dispatcher's
    // intake, the SLA monitor…); what an operator restarts is the second.
    process.stdout.write(`growth: ${label}: first npm start on that data, until /readyz answers 200…\n`);
    const first = await start();
    const catchUpStarted = performance.now();
    await untilReady(first.child.match.replace(/\/v1$/, ''));
    const catchUpMs = first.ms + (performance.now() - catchUpStarted);
    await stop(first.child.proc);
    process.stdout.write(`growth: ${label}: npm start again (the start-up time)…\n`);
    const { child: service, ms: startupMs } = await start();
    try {
      const base = service.match;
      await waitForKey(base, key);
      const auth = { authorization: `Bearer ${key}` };
      const json = { ...auth, 'content-type': 'application/json' };
      const middle = seeded.customers[Math.floor(seeded.customers.length / 2)];
      // Newest first: a cursor at the tenth created is nine tenths of the way down the list.
      const deep = seeded.customers[Math.floor(seeded.customers.length / 10)];
      const wanted = Math.floor(sizes.customers * 0.3);
      const conversation = seeded.conversations[Math.floor(seeded.conversations.length / 2)];
      let n = 0;
      const loads: Record<string, { load: Load; connections: number }> = {
        'GET /customers/{id}': { load: { url: `${base}/customers/${middle}`, method: 'GET', headers: auth }, connections: 50 },
        'GET /customers?limit=20, deep cursor': {
          load: { url: `${base}/customers?limit=20&starting_after=${deep}`, method: 'GET', headers: auth },
          connections: 50,
        },
        'GET /customers?search= (one match)': {
          load: { url: `${base}/customers?search=${encodeURIComponent(`growth${wanted}@`)}`, method: 'GET', headers: auth },
          connections: 10,
        },
        'POST /conversations/{id}/messages': {
          load: {
            url: `${base}/conversations/${conversation}/messages`,
            method: 'POST',
            headers: json,
            uniqueBodies: () => JSON.stringify({ content: `Growth load ${++n}` }),
          },
          connections: 10,
        },
      };
      const rates: Record<string, Side> = {};
      let rss = 0;
      const sampler = setInterval(() => (rss = Math.max(rss, rssBytes(service.proc.pid!))), 200);
      try {
        for (const [name, { load, connections }] of Object.entries(loads)) {
          process.stdout.write(`growth: ${label}: ${name}…\n`);
          rates[name] = await measure(load, connections);
        }
      } finally {
        clearInterval(sampler);
      }
      return { sizes, events: seeded.events, seedSeconds, rebuild, bytesPer1kEvents, catchUpMs, startupMs, rates, rssBytes: rss };
    } finally {
      await stop(service.proc);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
};

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');

/** The report: one row per figure, small against grown, with the target and its check. */
export const growthTable = (small: Figures, grown: Figures): string[][] => {
  const rows: string[][] = [['figure', 'small', 'grown', 'grown ÷ small', 'target', 'check']];
  const check = (ok: boolean) => (ok ? 'PASS' : 'OUTSIDE TARGET');
  for (const name of Object.keys(small.rates)) {
    const s = small.rates[name];
    const g = grown.rates[name];
    const slower = s.rps / g.rps;
    rows.push([
      `${name}: req/s`,
      fmt(s.rps),
      fmt(g.rps),
      `${fmt(g.rps / s.rps, 2)}×`,
      `≥ 1/${WITHIN} of small`,
      check(slower <= WITHIN && g.non2xx + g.errors === 0),
    ]);
    rows.push([`${name}: p99`, `${s.p99} ms`, `${g.p99} ms`, `${fmt(g.p99 / s.p99, 2)}×`, `≤ ${WITHIN}× small`, check(g.p99 <= WITHIN * Math.max(1, s.p99))]);
  }
  const growth = grown.events / small.events;
  rows.push([
    'RSS under load',
    `${fmt(small.rssBytes / 2 ** 20)} MiB`,
    `${fmt(grown.rssBytes / 2 ** 20)} MiB`,
    `${fmt(grown.rssBytes / small.rssBytes, 2)}×`,
    `≤ ${WITHIN}× small`,
    check(grown.rssBytes <= WITHIN * small.rssBytes),
  ]);
  rows.push([
    'data directory per 1k events',
    `${fmt(small.bytesPer1kEvents / 1024)} KiB`,
    `${fmt(grown.bytesPer1kEvents / 1024)} KiB`,
    `${fmt(grown.bytesPer1kEvents / small.bytesPer1kEvents, 2)}×`,
    `≤ ${WITHIN}× small`,
    check(grown.bytesPer1kEvents <= WITHIN * small.bytesPer1kEvents),
  ]);
  rows.push([
    'projections rebuild',
    `${fmt(small.rebuild.perSecond)} events/s`,
    `${fmt(grown.rebuild.perSecond)} events/s`,
    `${fmt(grown.rebuild.perSecond / small.rebuild.perSecond, 2)}×`,
    `≥ ${fmt(REBUILD_TARGET)}/s, linear`,
    check(grown.rebuild.perSecond >= REBUILD_TARGET && small.rebuild.perSecond / grown.rebuild.perSecond <= WITHIN),
  ]);
  // A time that may grow with the log, but no faster.
  const linear = (name: string, ms: (f: Figures) => number) =>
    rows.push([
      name,
      `${fmt(ms(small))} ms`,
      `${fmt(ms(grown))} ms`,
      `${fmt(ms(grown) / ms(small), 2)}× (log ${fmt(growth)}×)`,
      'at most linear in the log',
      check(ms(grown) <= WITHIN * ms(small) * growth),
    ]);
  linear('first start, to ready (consumers catch up the log)', (f) => f.catchUpMs);
  linear('start-up of npm start (knowledge index included)', (f) => f.startupMs);
  return rows;
};

export const growthMain = async (root: string, scale: number): Promise<void> => {
  if (!(scale > 0 && scale <= 1)) throw new Error(`--growth=SCALE takes a scale in (0, 1], not ${scale}`);
  const startLoad = Number(os.loadavg()[0].toFixed(2));
  const small = await measureAt(root, 'small', sized(scale * SMALL_FRACTION));
  const grown = await measureAt(root, 'grown', sized(scale));
  const describe = (f: Figures) =>
    `${f.sizes.customers} customers, ${f.sizes.conversations} conversations, ${f.sizes.messages} messages, ${f.events} events (seeded in ${fmt(f.seedSeconds)} s)`;
  process.stdout.write(
    `\ngrowth (scale ${scale}, ${os.cpus().length} cores)\n  small: ${describe(small)}\n  grown: ${describe(grown)}\n\n${table(growthTable(small, grown))}\n\n`,
  );
  const loadavg = { start: startLoad, end: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length };
  process.stdout.write(`BENCH_JSON ${JSON.stringify({ growth: { scale, small, grown }, loadavg })}\n`);
};
