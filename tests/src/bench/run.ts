import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Child, nodeJson, startNode, stop } from './children';

/**
 * `npm run bench`: the service against a bare Koa baseline on the same machine, same load.
 * A measurement, not a test: exits 0 whenever it managed to measure, whatever the numbers.
 */
const ROOT = path.resolve(__dirname, '../../..');
const SECONDS = 5;
const WARMUP_SECONDS = 1;
const SEED_CUSTOMERS = 200;
const P99_LIMIT = 2.5;

interface Load { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; uniqueBodies?: boolean }
interface Side { rps: number; p99: number; non2xx: number; errors: number; timeouts: number }
interface Scenario { name: string; connections: number; minRatio: number; checkP99: boolean; service: Load; baseline: Load }

// Unique across every POST run (warm-up included) so each service request creates a new customer.
let sent = 0;
const uniqueBody = () => JSON.stringify({ email: `load${++sent}@example.com`, name: `Load ${sent}` });

const run = async (load: Load, connections: number, duration: number): Promise<Side> => {
  const r = await autocannon({
    url: load.url, connections, pipelining: 1, duration, method: load.method, headers: load.headers,
    requests: load.uniqueBodies ? [{ method: 'POST', setupRequest: (req) => ({ ...req, body: uniqueBody() }) }] : undefined,
  });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
};

/** Warm-up (discarded), then the measured run. */
const measure = async (load: Load, connections: number) => {
  await run(load, connections, WARMUP_SECONDS);
  return run(load, connections, SECONDS);
};

const request = async (url: string, key: string, body?: unknown) => {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const waitForKey = async (base: string, key: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await request(`${base}/me`, key);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`GET /me still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Creates the customers 10 at a time; returns the id of the first. */
const seed = async (base: string, key: string): Promise<string> => {
  const ids: string[] = [];
  for (let i = 0; i < SEED_CUSTOMERS; i += 10) {
    const batch = Array.from({ length: Math.min(10, SEED_CUSTOMERS - i) }, (_, j) =>
      request(`${base}/customers`, key, { email: `bench${i + j}@example.com`, name: `Bench ${i + j}` }));
    for (const { status, body } of await Promise.all(batch)) {
      if (status !== 201) throw new Error(`seeding: POST /customers answered ${status} ${JSON.stringify(body)}`);
      ids.push(String(body.id));
    }
  }
  return ids[0];
};

const fmt = (n: number, digits = 0) => n.toFixed(digits);
/** Text columns (first, last) left-aligned, numbers right-aligned, each as wide as its widest cell. */
const table = (rows: string[][]) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()).join('\n');
};

const main = async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'support-bench-'));
  let baseline: Child | undefined;
  let service: Child | undefined;
  try {
    baseline = await startNode(path.join(__dirname, 'baseline.js'), {}, /listening on (http:\/\/\S+)/);
    // info, not warn: the "listening on" line is an info line; requests themselves log at debug.
    service = await startNode(path.join(ROOT, 'services/standalone/dist/main.js'),
      { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMIT_SCALE: '100000' },
      /listening on (http:\/\/\S+?\/v1)/);
    const base = service.match;
    const x = `${baseline.match}/x`;

    const admin = path.join(ROOT, 'services/admin/dist/main.js');
    const workspace = await nodeJson(admin, ['workspace', 'create', '--name', 'Bench', '--json'], { DATA_DIR: dataDir });
    const created = await nodeJson(admin, ['key', 'create', '--workspace', String(workspace.id), '--name', 'bench', '--json'], { DATA_DIR: dataDir });
    const key = String(created.key);
    await waitForKey(base, key);
    process.stdout.write(`seeding ${SEED_CUSTOMERS} customers…\n`);
    const id = await seed(base, key);

    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const scenarios: Scenario[] = [
      { name: 'GET /customers/{id}', connections: 50, minRatio: 0.5, checkP99: true,
        service: { url: `${base}/customers/${id}`, method: 'GET', headers: auth }, baseline: { url: x, method: 'GET', headers: auth } },
      { name: 'GET /customers?limit=20', connections: 50, minRatio: 0.3, checkP99: true,
        service: { url: `${base}/customers?limit=20`, method: 'GET', headers: auth }, baseline: { url: x, method: 'GET', headers: auth } },
      { name: 'POST /customers', connections: 10, minRatio: 0.15, checkP99: false,
        service: { url: `${base}/customers`, method: 'POST', headers: json, uniqueBodies: true },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: true } },
    ];

    const results = [];
    for (const s of scenarios) {
      process.stdout.write(`measuring ${s.name} (${s.connections} connections, ${SECONDS} s each)…\n`);
      const svc = await measure(s.service, s.connections);
      const bl = await measure(s.baseline, s.connections);
      const ratio = bl.rps > 0 ? svc.rps / bl.rps : 0;
      const p99Ratio = bl.p99 > 0 ? svc.p99 / bl.p99 : Infinity;
      const problems = [
        ratio < s.minRatio ? `throughput < ${s.minRatio}×` : '',
        s.checkP99 && p99Ratio > P99_LIMIT ? `p99 > ${P99_LIMIT}×` : '',
        svc.non2xx + svc.errors > 0 ? 'service non-2xx/errors' : '',
        bl.non2xx + bl.errors > 0 ? 'baseline non-2xx/errors' : '',
      ].filter(Boolean);
      results.push({ scenario: s.name, connections: s.connections, service: svc, baseline: bl, ratio, p99Ratio,
        target: { minRatio: s.minRatio, maxP99Ratio: s.checkP99 ? P99_LIMIT : null }, pass: problems.length === 0, problems });
    }

    const text = table([
      ['scenario', 'conns', 'svc req/s', 'base req/s', 'ratio (min)', 'svc p99', 'base p99', 'p99 ratio', 'svc non2xx/err', 'base non2xx/err', 'check'],
      ...results.map((r) => [
        r.scenario, String(r.connections), fmt(r.service.rps), fmt(r.baseline.rps),
        `${fmt(r.ratio, 2)} (${r.target.minRatio})`, `${r.service.p99} ms`, `${r.baseline.p99} ms`,
        `${fmt(r.p99Ratio, 2)}${r.target.maxP99Ratio ? ` (≤${r.target.maxP99Ratio})` : ''}`,
        `${r.service.non2xx}/${r.service.errors}`, `${r.baseline.non2xx}/${r.baseline.errors}`,
        r.pass ? 'PASS' : `BELOW TARGET: ${r.problems.join(', ')}`,
      ]),
    ]);
    process.stdout.write(`\n${text}\n\n`);
    process.stdout.write(`BENCH_JSON ${JSON.stringify({ seconds: SECONDS, seeded: SEED_CUSTOMERS, results })}\n`);
  } finally {
    await Promise.all([stop(service?.proc), stop(baseline?.proc)]);
    await rm(dataDir, { recursive: true, force: true });
  }
};

main().catch((err) => {
  process.stderr.write(`benchmark could not run: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
