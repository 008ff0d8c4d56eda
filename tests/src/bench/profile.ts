import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request, seed, waitForKey } from './api';
import { askEachOnce, benchArticles, importArticles, indexedArticles } from './agent';
import { benchServiceEnv, nodeJson, startNode, stop } from './children';
import { fixtureQuestions } from '../support/quality';

/**
 * `npm run --silent bench:profile -- <get|list|create|message|search|turn> [seconds] [--no-profile]`:
 * one of the bench's HTTP scenarios (search and turn: the agent's, 200 articles indexed) against
 * `npm start` run under `node --cpu-prof`, then where its CPU time went: self time by function
 * and by file, and inclusive time of our own code. The .cpuprofile is kept
 * (open it in Chrome DevTools or speedscope for the flame graph). What docs/performance.md cites.
 */
const ROOT = path.resolve(__dirname, '../../..');

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self and inclusive time per function, self time per file, as shares of the samples taken
 * between `window` µs (since the profile began; all of them when not given): the load's, not the
 * start-up's and the article import's, which are mostly idle waits for the embedding model.
 */
export const summarize = (profile: CpuProfile, top = 25, window?: [number, number]): string => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const time = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window === undefined || (at >= window[0] && at <= window[1])) time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...time.values()].reduce((a, b) => a + b, 0) || 1;
  const short = (url: string) =>
    url
      .replace(/^file:\/\//, '')
      .replace(/.*node_modules\//, '')
      .replace(`${ROOT}/`, '');
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const files = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
  for (const [id, t] of time) {
    add(self, label(id), t);
    add(files, short(byId.get(id)!.callFrame.url) || byId.get(id)!.callFrame.functionName, t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(cur);
      const url = byId.get(cur)!.callFrame.url;
      if (!seen.has(k) && url.includes(ROOT) && !url.includes('node_modules')) add(inclusive, k, t);
      seen.add(k);
    }
  }
  const list = (title: string, m: Map<string, number>) =>
    [
      `== ${title}`,
      ...[...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`),
    ].join('\n');
  return [list('self time by function', self), list('self time by file', files), list('inclusive time, our code', inclusive)].join('\n\n');
};

/** The process's user + system CPU time so far, in ms (Linux /proc; clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After "pid (comm) ": utime and stime are fields 14 and 15 of the whole line.
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const main = async () => {
  const scenario = process.argv[2] ?? 'get';
  const seconds = Number(process.argv[3] ?? 8);
  // --no-profile: the same run without the profiler, for a quick before/after of one change.
  const profiling = !process.argv.includes('--no-profile');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'support-profile-'));
  const outDir = mkdtempSync(path.join(tmpdir(), 'support-cpuprofile-'));
  let loadStarted = 0;
  let loadEnded = 0;
  let stopped = 0;
  const env = benchServiceEnv(dataDir);
  const service = await startNode(
    path.join(ROOT, 'services/standalone/dist/main.js'),
    env,
    /listening on (http:\/\/\S+?\/v1)/,
    30_000,
    undefined,
    profiling ? ['--cpu-prof', `--cpu-prof-dir=${outDir}`] : [],
  );
  try {
    const admin = path.join(ROOT, 'services/admin/dist/main.js');
    const ws = await nodeJson(admin, ['workspace', 'create', '--name', 'Profile', '--credits', '1000000000', '--json'], { DATA_DIR: dataDir });
    const key = String((await nodeJson(admin, ['key', 'create', '--workspace', String(ws.id), '--name', 'profile', '--json'], { DATA_DIR: dataDir })).key);
    const base = service.match;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    await waitForKey(base, key);
    const first = await seed(base, key);
    const conversation = String((await request(`${base}/conversations`, key, {})).body.id);
    if (scenario === 'search' || scenario === 'turn') {
      await importArticles(admin, { DATA_DIR: dataDir }, dataDir, String(ws.id), benchArticles(200), () => indexedArticles(base, key));
      const enabled = await request(`${base}/agent`, key, { is_enabled: true, deployed_channels: { api: true } }, 'PATCH');
      if (enabled.status !== 200) throw new Error(`PATCH /agent answered ${enabled.status}`);
    }
    const questions = fixtureQuestions()
      .filter((q) => q.article_id !== null)
      .map((q) => q.question);
    let n = 0;
    const scenarios: Record<string, { url: string; connections: number; body?: () => string }> = {
      get: { url: `/customers/${first}`, connections: 50 },
      list: { url: '/customers?limit=20', connections: 50 },
      create: { url: '/customers', connections: 10, body: () => JSON.stringify({ email: `load${++n}@example.com`, name: 'Load' }) },
      message: { url: `/conversations/${conversation}/messages`, connections: 10, body: () => JSON.stringify({ content: `Load message ${++n}` }) },
      search: { url: '/agent/search', connections: 50, body: () => JSON.stringify({ query: questions[++n % questions.length], top_k: 8 }) },
      turn: { url: '/agent/messages', connections: 10, body: () => JSON.stringify({ message: questions[++n % questions.length] }) },
    };
    const s = scenarios[scenario];
    if (!s) throw new Error(`unknown scenario ${scenario} (known: ${Object.keys(scenarios).join(', ')})`);
    if (scenario === 'search' || scenario === 'turn') {
      // As the bench does: the steady state, not the start-up.
      await askEachOnce(base, key, questions);
    }
    const cpuBefore = cpuMs(service.proc.pid!);
    loadStarted = Date.now();
    const r = await autocannon({
      url: base + s.url,
      connections: s.connections,
      duration: seconds,
      method: s.body ? 'POST' : 'GET',
      headers,
      requests: s.body ? [{ method: 'POST', setupRequest: (req) => ({ ...req, body: s.body!() }) }] : undefined,
    });
    loadEnded = Date.now();
    // CPU per request is steadier than req/s on a shared machine: what a change saves.
    const cpuPerRequest = ((cpuMs(service.proc.pid!) - cpuBefore) * 1000) / Math.max(1, r.requests.total);
    process.stdout.write(
      `${scenario}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, service CPU ${Math.round(cpuPerRequest)} µs per request${profiling ? ' (under the profiler)' : ''}\n\n`,
    );
  } finally {
    await stop(service.proc);
    stopped = Date.now();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!profiling) return;
  const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the service wrote no profile');
  const profile = JSON.parse(readFileSync(path.join(outDir, file), 'utf8')) as CpuProfile;
  // The profile ends as the service exits: count back from there to the load's start and end.
  const length = profile.endTime - profile.startTime;
  const window: [number, number] = [length - (stopped - loadStarted) * 1000, length - (stopped - loadEnded) * 1000];
  process.stdout.write(`${summarize(profile, 25, window)}\n\nprofile: ${path.join(outDir, file)} (the summary counts the load's ${seconds} s)\n`);
};

if (require.main === module)
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
