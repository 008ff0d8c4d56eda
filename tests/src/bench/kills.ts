import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { Child } from './children';
import { table } from './load';

/**
 * Writes as users feel them while processes die: careful clients (an Idempotency-Key per write,
 * the same key on every retry, the other api after a 5xx, a 429 or a lost connection) write for
 * a calm phase, then for a phase in which one process is SIGKILLed every KILL_EVERY_MS in turn
 * (projector, relay, an api) and a successor started at once, as a supervisor would. A write's
 * latency runs from its first try until it is saved (retries included). Then the log is counted:
 * no write made twice.
 */

export const PHASE_SECONDS = 30;
export const KILL_EVERY_MS = 5000;
const WRITERS = 8;
const RETRY_PAUSE_MS = 250;

export interface KillsTopology {
  /** Starts a service and waits until it listens. */
  start: (name: string, instance: string) => Promise<Child>;
  /** The admin CLI with --json: its one JSON object. */
  admin: (...args: string[]) => Promise<Record<string, unknown>>;
  adminScript: string;
  adminEnv: NodeJS.ProcessEnv;
  /** The services already running, by role: the first api is never killed (autocannon's). */
  projector: Child;
  relay: Child;
}

export interface PhaseResult {
  writes: number;
  retries: number;
  p50: number;
  p99: number;
  max: number;
}

export interface KillsResult {
  calm: PhaseResult;
  kills: PhaseResult & { killed: string[]; successorStartMs: number[] };
  /** Created events in the log for the writes acknowledged: equal when none was made twice. */
  created: number;
  acknowledged: number;
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

const post = async (base: string, key: string, path: string, body: unknown, idempotencyKey: string) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

export const writesUnderKills = async (top: KillsTopology): Promise<KillsResult> => {
  const ws = await top.admin('workspace', 'create', '--name', 'Kills', '--credits', '1000000');
  const key = String((await top.admin('key', 'create', '--workspace', String(ws.id), '--name', 'kills')).key);
  // Two apis of its own: the first is never killed, the second (the last started) is.
  let api = await top.start('api', 'kills-api-2');
  const apis = [(await top.start('api', 'kills-api-1')).match, api.match];
  let projector = top.projector;
  let relay = top.relay;
  let writes = 0;
  let retries = 0;
  let latencies: number[] = [];

  /** One write until saved: 201, or a 4xx other than 429 (a bench error, thrown). */
  const save = async (writer: number, path: string, body: unknown, idempotencyKey: string) => {
    const began = performance.now();
    for (let attempt = 0; ; attempt++) {
      const base = apis[(writer + attempt) % 2];
      // A lost connection (a killed api answers nothing) is status 0.
      const r = await post(base, key, path, body, idempotencyKey).catch(() => ({ status: 0, body: { id: null } }));
      if (r.status === 201) {
        latencies.push(performance.now() - began);
        writes += 1;
        return String(r.body.id);
      }
      if (![0, 429, 500, 502, 503].includes(r.status) || attempt > 400) throw new Error(`kills: POST ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
      retries += 1;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  };
  // Each writer: its own conversation, then a customer and a message in turn until the phase ends.
  let serial = 0;
  const phase = async (seconds: number): Promise<PhaseResult> => {
    latencies = [];
    writes = 0;
    retries = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const conversation = await save(w, '/conversations', {}, `kills-conv-${w}-${++serial}`);
        while (performance.now() < until) {
          const n = ++serial;
          await save(w, '/customers', { email: `kills${n}@example.com` }, `kills-cus-${n}`);
          await save(w, `/conversations/${conversation}/messages`, { content: `kills ${n}` }, `kills-msg-${n}`);
        }
      }),
    );
    const sorted = [...latencies].sort((a, b) => a - b);
    return { writes, retries, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN };
  };

  const calm = await phase(PHASE_SECONDS);
  let acknowledged = calm.writes;
  // The kills, while the writers write: projector, relay, the second api, and again.
  const killed: string[] = [];
  const successorStartMs: number[] = [];
  let stopKilling = false;
  const killer = (async () => {
    for (let k = 0; !stopKilling; k++) {
      await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
      if (stopKilling) break;
      const role = (['projector', 'relay', 'api'] as const)[k % 3];
      (role === 'projector' ? projector : role === 'relay' ? relay : api).proc.kill('SIGKILL');
      killed.push(role);
      const began = performance.now();
      const successor = await top.start(role, `kills-${role}-${k}`);
      successorStartMs.push(Math.round(performance.now() - began));
      if (role === 'projector') projector = successor;
      else if (role === 'relay') relay = successor;
      else {
        api = successor;
        apis[1] = successor.match;
      }
    }
  })();
  const kills = await phase(PHASE_SECONDS);
  stopKilling = true;
  await killer;
  acknowledged += kills.writes;

  const { stdout } = await promisify(execFile)(process.execPath, [top.adminScript, 'events', 'replay', '--workspace', String(ws.id), '--json'], {
    env: { ...process.env, ...top.adminEnv },
    maxBuffer: 256 * 1024 * 1024,
  });
  const created = stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { type: string }).type)
    .filter((type) => ['customer.created', 'conversation.created', 'message.created'].includes(type)).length;
  return { calm, kills: { ...kills, killed, successorStartMs }, created, acknowledged };
};

/**
 * The target: p99 during the kills within the read-your-writes timeout's default (5 s). Up to
 * then a write's answer is its 201; beyond it, more than 1% of writes needed a retry (their
 * first answer a 503 write_committed or a lost connection) to learn they were saved.
 */
export const KILLS_P99_TARGET_MS = 5000;

export const killsTable = (r: KillsResult): string => {
  const ms = (n: number) => `${Math.round(n)} ms`;
  const row = (name: string, p: PhaseResult, check: string) => [name, String(p.writes), String(p.retries), ms(p.p50), ms(p.p99), ms(p.max), check];
  const starts = r.kills.successorStartMs;
  return table([
    ['writes until saved (retries included)', 'writes', 'retries', 'p50', 'p99', 'max', 'check'],
    row(`${PHASE_SECONDS} s, no kills`, r.calm, '—'),
    row(
      `${PHASE_SECONDS} s, SIGKILL every ${KILL_EVERY_MS / 1000} s (${r.kills.killed.join(', ')}; successors listening after ${starts.join(', ')} ms)`,
      r.kills,
      `p99 ≤ ${KILLS_P99_TARGET_MS / 1000} s: ${r.kills.p99 <= KILLS_P99_TARGET_MS ? 'PASS' : 'ABOVE TARGET'}`,
    ),
    ['no write made twice', `${r.acknowledged} acknowledged`, `${r.created} created`, '', '', '', r.created === r.acknowledged ? 'PASS' : 'FAIL'],
  ]);
};
