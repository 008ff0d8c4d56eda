import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { benchServiceEnv, Child, nodeJson, placement, startNode, stop } from './children';
import { scaledMain } from './scaled';
import { growthMain } from './growth';
import { compare, Load, MAX_ROUNDS, ROUNDS, SECONDS, Side, table } from './load';
import { msUntilStatus, request, seed, SEED_CUSTOMERS, waitForKey } from './api';
import { askEachOnce, benchArticles, importArticles, indexedArticles } from './agent';
import { fixtureArticles, fixtureQuestions, measureQuality } from '../support/quality';
import { createConversation, deliveryRecords, measureLatency, measureThroughput, Receiver, registerEndpoint, startReceiver } from './webhooks';

/**
 * `npm run bench`: the service against a bare Koa baseline on the same machine, same load.
 * A measurement, not a test: exits 0 whenever it managed to measure, whatever the numbers.
 */
const ROOT = path.resolve(__dirname, '../../..');
const P99_LIMIT = 2.5;
// Webhooks: a burst to one conversation for throughput, then a fixed rate for end-to-end latency.
const BURST_MESSAGES = 2000;
const BURST_CONCURRENCY = 20;
const LATENCY_RATE = 200;
const LATENCY_SECONDS = 10;
const LATENCY_CONVERSATIONS = 20;
const LATENCY_P99_LIMIT_MS = 250;
const DELIVERY_TIMEOUT_MS = 60_000;
// Operator interface: what the admin CLI writes (a key, a revocation) applies within a second.
const ADMIN_VISIBILITY_LIMIT_MS = 1000;

/**
 * minRatio null: no target against the baseline, measured for the record (check column "—").
 * relative: a target against another scenario of the same run (the agent's rows).
 */
interface Scenario {
  name: string;
  connections: number;
  minRatio: number | null;
  checkP99: boolean;
  service: Load;
  baseline: Load;
  relative?: { to: string; min: number };
  /** An absolute bound on the service's p99 (the agent's turn under 50 customers at once). */
  maxP99Ms?: number;
}

// Unique across every POST run (warm-up included) so each service request creates a new customer / message.
let sent = 0;
const uniqueBody = () => JSON.stringify({ email: `load${++sent}@example.com`, name: `Load ${sent}` });
let sentMessages = 0;
const uniqueMessage = () => JSON.stringify({ content: `Load message ${++sentMessages}` });
// Agent turns: the fixture's questions in turn, each starting a new conversation.
const KB_ARTICLES = 200;
let asked = 0;
const questions = () =>
  fixtureQuestions()
    .filter((q) => q.article_id !== null)
    .map((q) => q.question);
let questionList: string[] = [];
const agentTurn = () => JSON.stringify({ message: questionList[asked++ % questionList.length] });
const agentSearch = () => JSON.stringify({ query: questionList[asked++ % questionList.length], top_k: 8 });

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const main = async () => {
  const startLoad = Number(os.loadavg()[0].toFixed(2));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'support-bench-'));
  const caDir = await mkdtemp(path.join(tmpdir(), 'support-bench-ca-'));
  let baseline: Child | undefined;
  let service: Child | undefined;
  let receiver: Receiver | undefined;
  try {
    baseline = await startNode(path.join(__dirname, 'baseline.js'), {}, /listening on (http:\/\/\S+)/);
    // Before the service: it trusts the receiver's self-signed certificate from its start.
    receiver = await startReceiver(caDir);
    // info, not warn: the "listening on" line is an info line; requests themselves log at debug.
    service = await startNode(
      path.join(ROOT, 'services/standalone/dist/main.js'),
      // The embedding model on when fetched (the default setup), as the agent issue's targets assume.
      {
        ...benchServiceEnv(dataDir),
        NODE_EXTRA_CA_CERTS: receiver.caFile,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      },
      /listening on (http:\/\/\S+?\/v1)/,
      20_000,
      /"level":"(warn|error)"|delivery attempt failed/,
    );
    const base = service.match;
    const x = `${baseline.match}/x`;

    const admin = path.join(ROOT, 'services/admin/dist/main.js');
    const workspace = await nodeJson(admin, ['workspace', 'create', '--name', 'Bench', '--credits', '1000000000', '--json'], { DATA_DIR: dataDir });
    const created = await nodeJson(admin, ['key', 'create', '--workspace', String(workspace.id), '--name', 'bench', '--json'], { DATA_DIR: dataDir });
    const key = String(created.key);
    await waitForKey(base, key);
    // Before any load: how soon the running service sees a key the CLI made, then its revocation.
    const probe = await nodeJson(admin, ['key', 'create', '--workspace', String(workspace.id), '--name', 'visibility', '--json'], { DATA_DIR: dataDir });
    const keyUsableMs = await msUntilStatus(base, String(probe.key), 200);
    await nodeJson(admin, ['key', 'revoke', '--id', String(probe.id), '--json'], { DATA_DIR: dataDir });
    const revocationMs = await msUntilStatus(base, String(probe.key), 401);
    const adminVisibility = {
      keyUsableMs: Math.round(keyUsableMs),
      revocationMs: Math.round(revocationMs),
      limitMs: ADMIN_VISIBILITY_LIMIT_MS,
      pass: keyUsableMs < ADMIN_VISIBILITY_LIMIT_MS && revocationMs < ADMIN_VISIBILITY_LIMIT_MS,
    };
    process.stdout.write(`seeding ${SEED_CUSTOMERS} customers…\n`);
    const id = await seed(base, key);
    const api = { base, key };
    const conversation = await createConversation(api);
    process.stdout.write(`importing ${KB_ARTICLES} knowledge base articles…\n`);
    await importArticles(admin, { DATA_DIR: dataDir }, dataDir, String(workspace.id), benchArticles(KB_ARTICLES), () => indexedArticles(base, key));
    const enabled = await request(`${base}/agent`, key, { is_enabled: true, deployed_channels: { api: true } }, 'PATCH');
    if (enabled.status !== 200) throw new Error(`PATCH /agent answered ${enabled.status}`);
    questionList = questions();
    // One search waits until every passage is embedded (the model's start-up work), so that it
    // does not run under the first rows' load.
    const embedded = Date.now();
    const warm = await request(`${base}/agent/search`, key, { query: 'warm-up', top_k: 1 }, 'POST');
    if (warm.status !== 200) throw new Error(`POST /agent/search answered ${warm.status}`);
    process.stdout.write(`knowledge search ready after ${Date.now() - embedded} ms\n`);
    const warming = Date.now();
    await askEachOnce(base, key, questionList);
    process.stdout.write(`agent warm after ${Date.now() - warming} ms (${questionList.length} questions, 10 at a time)\n`);

    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const scenarios: Scenario[] = [
      {
        name: 'GET /customers/{id}',
        connections: 50,
        minRatio: 0.5,
        checkP99: true,
        service: { url: `${base}/customers/${id}`, method: 'GET', headers: auth },
        baseline: { url: x, method: 'GET', headers: auth },
      },
      {
        name: 'GET /customers?limit=20',
        connections: 50,
        minRatio: 0.3,
        checkP99: true,
        service: { url: `${base}/customers?limit=20`, method: 'GET', headers: auth },
        baseline: { url: x, method: 'GET', headers: auth },
      },
      {
        name: 'POST /customers',
        connections: 10,
        minRatio: 0.15,
        checkP99: false,
        service: { url: `${base}/customers`, method: 'POST', headers: json, uniqueBodies: uniqueBody },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: uniqueBody },
      },
      // All on one conversation: the writes serialize on its stream, which grows as the run goes.
      {
        name: 'POST /conversations/{id}/messages',
        connections: 10,
        minRatio: 0.15,
        checkP99: false,
        service: { url: `${base}/conversations/${conversation}/messages`, method: 'POST', headers: json, uniqueBodies: uniqueMessage },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: uniqueBody },
      },
      // One grounded turn each (new conversation, customer message, reply, charge), 200 articles indexed.
      {
        name: 'POST /agent/messages',
        connections: 10,
        minRatio: null,
        checkP99: false,
        relative: { to: 'POST /conversations/{id}/messages', min: 0.5 },
        service: { url: `${base}/agent/messages`, method: 'POST', headers: json, uniqueBodies: agentTurn },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: uniqueBody },
      },
      // The agent issue's latency bound: 50 customers waiting on their turn at once.
      {
        name: 'POST /agent/messages, 50 customers',
        connections: 50,
        minRatio: null,
        checkP99: false,
        maxP99Ms: 250,
        service: { url: `${base}/agent/messages`, method: 'POST', headers: json, uniqueBodies: agentTurn },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: uniqueBody },
      },
      {
        name: 'POST /agent/search',
        connections: 50,
        minRatio: null,
        checkP99: false,
        relative: { to: 'GET /customers?limit=20', min: 0.5 },
        service: { url: `${base}/agent/search`, method: 'POST', headers: json, uniqueBodies: agentSearch },
        baseline: { url: x, method: 'POST', headers: json, uniqueBodies: uniqueBody },
      },
    ];

    interface Result {
      scenario: string;
      connections: number;
      service: Side;
      baseline: Side;
      ratio: number;
      ratioRange: { min: number; max: number; rounds: number };
      p99Ratio: number;
      relative: { to: string; min: number; ratio: number } | null;
      target: { minRatio: number | null; maxP99Ratio: number | null; maxP99Ms: number | null };
      pass: boolean;
      problems: string[];
    }
    const results: Result[] = [];
    for (const s of scenarios) {
      process.stdout.write(`measuring ${s.name} (${s.connections} connections, ${ROUNDS}–${MAX_ROUNDS} alternating rounds of ${SECONDS} s each side)…\n`);
      const { svc, bl, ratio, ratioRange, p99Ratio } = await compare(s.service, s.baseline, s.connections);
      const ref: Result | undefined = s.relative ? results.find((r) => r.scenario === s.relative!.to) : undefined;
      const relative: Result['relative'] =
        s.relative && ref ? { to: s.relative.to, min: s.relative.min, ratio: ref.service.rps > 0 ? svc.rps / ref.service.rps : 0 } : null;
      const problems = [
        relative && relative.ratio < relative.min ? `< ${relative.min}× ${relative.to}` : '',
        s.minRatio !== null && ratio < s.minRatio ? `throughput < ${s.minRatio}×` : '',
        s.checkP99 && p99Ratio > P99_LIMIT ? `p99 > ${P99_LIMIT}×` : '',
        s.maxP99Ms !== undefined && !(svc.p99 < s.maxP99Ms) ? `p99 ≥ ${s.maxP99Ms} ms` : '',
        svc.non2xx + svc.errors > 0 ? 'service non-2xx/errors' : '',
        bl.non2xx + bl.errors > 0 ? 'baseline non-2xx/errors' : '',
      ].filter(Boolean);
      results.push({
        scenario: s.name,
        connections: s.connections,
        service: svc,
        baseline: bl,
        ratio,
        ratioRange,
        p99Ratio,
        relative,
        target: { minRatio: s.minRatio, maxP99Ratio: s.checkP99 ? P99_LIMIT : null, maxP99Ms: s.maxP99Ms ?? null },
        pass: problems.length === 0,
        problems,
      });
    }

    const text = table([
      [
        'scenario',
        'conns',
        'svc req/s',
        'base req/s',
        'ratio: median (target)',
        'range, rounds',
        'svc p99',
        'base p99',
        'p99 ratio',
        'svc non2xx/err',
        'base non2xx/err',
        'check',
      ],
      ...results.map((r) => [
        r.scenario,
        String(r.connections),
        fmt(r.service.rps),
        fmt(r.baseline.rps),
        // Three decimals: a ratio just under its target does not print as the target.
        `${fmt(r.ratio, 3)} (${r.target.minRatio ?? '—'})`,
        `${fmt(r.ratioRange.min, 3)}–${fmt(r.ratioRange.max, 3)}, ${r.ratioRange.rounds}`,
        `${r.service.p99} ms${r.target.maxP99Ms !== null ? ` (<${r.target.maxP99Ms})` : ''}`,
        `${r.baseline.p99} ms`,
        `${fmt(r.p99Ratio, 2)}${r.target.maxP99Ratio ? ` (≤${r.target.maxP99Ratio})` : ''}`,
        `${r.service.non2xx}/${r.service.errors}`,
        `${r.baseline.non2xx}/${r.baseline.errors}`,
        r.relative
          ? `${r.pass ? 'PASS' : `BELOW TARGET: ${r.problems.join(', ')}`} (${fmt(r.relative.ratio, 2)}× ${r.relative.to}, min ${r.relative.min})`
          : r.target.minRatio === null && r.target.maxP99Ms === null
            ? r.pass
              ? '—'
              : `— (${r.problems.join(', ')})`
            : r.pass
              ? 'PASS'
              : `BELOW TARGET: ${r.problems.join(', ')}`,
      ]),
    ]);

    // Registered only now, so the messages posted above are not delivered (an endpoint gets the events after its creation).
    const endpoint = await registerEndpoint(api, receiver);
    process.stdout.write(`webhooks: burst of ${BURST_MESSAGES} messages to one conversation (${BURST_CONCURRENCY} at a time)…\n`);
    const throughput = await measureThroughput(api, receiver, await createConversation(api), BURST_MESSAGES, BURST_CONCURRENCY, DELIVERY_TIMEOUT_MS);
    process.stdout.write(`webhooks: ${LATENCY_RATE} messages/s for ${LATENCY_SECONDS} s over ${LATENCY_CONVERSATIONS} conversations…\n`);
    const conversations: string[] = [];
    for (let i = 0; i < LATENCY_CONVERSATIONS; i++) conversations.push(await createConversation(api));
    const latency = await measureLatency(api, receiver, conversations, LATENCY_RATE, LATENCY_SECONDS, LATENCY_P99_LIMIT_MS, DELIVERY_TIMEOUT_MS);
    const records = await deliveryRecords(api, endpoint);
    const latencyProblems = [
      !(latency.p99 < LATENCY_P99_LIMIT_MS) ? `p99 ≥ ${LATENCY_P99_LIMIT_MS} ms` : '',
      latency.matched < latency.accepted ? `${latency.accepted - latency.matched} not delivered` : '',
      latency.non2xx > 0 ? 'non-2xx/errors' : '',
    ].filter(Boolean);
    const statuses = (byStatus: Record<string, number>) =>
      Object.entries(byStatus)
        .filter(([s]) => s !== '201')
        .map(([s, c]) => `${c}×${s}`)
        .join(' ');
    const hooks = table([
      ['webhooks', 'sent', 'send rate', 'non2xx', 'POST p99', 'received', 'deliveries/s', 'e2e p50', 'e2e p99', 'e2e max', 'total (after last POST)', 'check'],
      [
        'burst (throughput)',
        String(throughput.messages),
        `${fmt(throughput.postRate)}/s`,
        String(throughput.non2xx),
        `${fmt(throughput.response.p99)} ms`,
        `${throughput.received}/${throughput.posted}${throughput.duplicates ? ` +${throughput.duplicates} dup` : ''}`,
        fmt(throughput.deliveriesPerSecond),
        '—',
        '—',
        '—',
        `${fmt(throughput.totalSeconds, 1)} s (+${fmt(throughput.drainSeconds, 1)} s)`,
        [
          throughput.complete ? '—' : `— (${throughput.posted - throughput.received} not delivered within ${DELIVERY_TIMEOUT_MS / 1000} s)`,
          throughput.non2xx ? `non-2xx: ${statuses(throughput.statuses)}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      ],
      [
        `${LATENCY_RATE}/s for ${LATENCY_SECONDS} s (latency)`,
        String(latency.sent),
        `${fmt(latency.sendRate)}/s`,
        String(latency.non2xx),
        `${fmt(latency.response.p99)} ms`,
        `${latency.matched}/${latency.accepted}${latency.duplicates ? ` +${latency.duplicates} dup` : ''}`,
        '—',
        `${fmt(latency.p50)} ms`,
        `${fmt(latency.p99)} ms (<${LATENCY_P99_LIMIT_MS})`,
        `${fmt(latency.max)} ms`,
        '—',
        [latencyProblems.length === 0 ? 'PASS' : `BELOW TARGET: ${latencyProblems.join(', ')}`, latency.non2xx ? `non-2xx: ${statuses(latency.statuses)}` : '']
          .filter(Boolean)
          .join('; '),
      ],
    ]);
    const notes = [
      records.retried ? `${records.retried} of ${records.deliveries} deliveries needed a retry (a failed attempt waits a minute by default)` : '',
      records.deliveries - (records.byStatus.succeeded ?? 0) ? `not succeeded: ${JSON.stringify(records.byStatus)}` : '',
      Object.keys(records.errors).length ? `last errors: ${JSON.stringify(records.errors)}` : '',
      service.kept.length ? `${service.kept.length} warning/error/failed-delivery log lines, first: ${service.kept[0]}` : '',
    ]
      .filter(Boolean)
      .map((n) => `webhooks: ${n}\n`)
      .join('');
    process.stdout.write('retrieval quality: the labelled fixture through /agent/search and /agent/messages…\n');
    const qws = await nodeJson(admin, ['workspace', 'create', '--name', 'Quality', '--credits', '100000', '--json'], { DATA_DIR: dataDir });
    const qkey = String((await nodeJson(admin, ['key', 'create', '--workspace', String(qws.id), '--name', 'quality', '--json'], { DATA_DIR: dataDir })).key);
    await waitForKey(base, qkey);
    const qArticles = fixtureArticles();
    await importArticles(admin, { DATA_DIR: dataDir }, dataDir, String(qws.id), qArticles, async () => {
      const page = await request(`${base}/knowledge_base/articles?limit=100`, qkey);
      return (page.body.data as { indexed: boolean }[]).filter((a) => a.indexed).length;
    });
    await request(`${base}/agent`, qkey, { is_enabled: true, deployed_channels: { api: true } }, 'PATCH');
    const quality = await measureQuality((p, body) => request(`${base}${p}`, qkey, body), fixtureQuestions());
    const qualityText = table([
      ['retrieval (fixture)', 'questions', 'recall@1', 'recall@5', 'MRR', 'turns citing the right article', 'off-topic declined'],
      [
        `${qArticles.length} articles`,
        String(quality.questions),
        fmt(quality.recall_at_1, 3),
        fmt(quality.recall_at_5, 3),
        fmt(quality.mrr, 3),
        fmt(quality.turns_citing_right_article, 3),
        `${Math.round(quality.off_topic_declined * quality.off_topic_questions)} of ${quality.off_topic_questions}`,
      ],
    ]);
    const visibilityText =
      `admin CLI → running service (after the CLI returned): a new key usable after ${adminVisibility.keyUsableMs} ms, ` +
      `its revocation applied after ${adminVisibility.revocationMs} ms (each < ${ADMIN_VISIBILITY_LIMIT_MS} ms: ${adminVisibility.pass ? 'PASS' : 'ABOVE TARGET'})`;
    const how = `${placement()}; each ratio is the median of its alternating rounds (targets are checked on it), with their range`;
    process.stdout.write(`\n${how}\n${text}\n\n${hooks}\n${notes}\n${qualityText}\n\n${visibilityText}\n\n`);
    const webhooks = {
      throughput,
      latency: { ...latency, pass: latencyProblems.length === 0, problems: latencyProblems },
      records,
      serviceLog: service.kept.slice(0, 20),
    };
    // The machine is shared: a load average well above 1 at the end means the numbers are noisy.
    const loadavg = { start: startLoad, end: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length };
    process.stdout.write(
      `BENCH_JSON ${JSON.stringify({ seconds: SECONDS, rounds: ROUNDS, seeded: SEED_CUSTOMERS, articles: KB_ARTICLES, results, webhooks, quality, adminVisibility, loadavg })}\n`,
    );
  } finally {
    await Promise.all([stop(service?.proc), stop(baseline?.proc)]);
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(caDir, { recursive: true, force: true });
  }
};

const growthArg = process.argv.find((a) => a === '--growth' || a.startsWith('--growth='));
const entry = growthArg
  ? growthMain(ROOT, growthArg.includes('=') ? Number(growthArg.slice('--growth='.length)) : 1)
  : process.argv.includes('--topology=scaled')
    ? scaledMain(ROOT)
    : main();
entry.catch((err) => {
  process.stderr.write(`benchmark could not run: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
