import autocannon from 'autocannon';

/** What the benches send: one URL, method and headers; a fresh body per request when given. */
export interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  uniqueBodies?: () => string;
}

export interface Side {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export const SECONDS = 3;
/** Alternating rounds at least, and at most: more are run while the per-round ratios still spread wide. */
export const ROUNDS = 5;
export const MAX_ROUNDS = 11;
/** Rounds go on until the middle half of the per-round ratios lies within this share of their median. */
export const SPREAD_LIMIT = 0.1;
export const WARMUP_SECONDS = 1;

/** One autocannon run of `load` over `connections` for `duration` seconds. */
export const run = async (load: Load, connections: number, duration: number): Promise<Side> => {
  const r = await autocannon({
    url: load.url,
    connections,
    pipelining: 1,
    duration,
    method: load.method,
    headers: load.headers,
    requests: load.uniqueBodies ? [{ method: 'POST', setupRequest: (req) => ({ ...req, body: load.uniqueBodies!() }) }] : undefined,
  });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
};

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Medians of the rates and the p99s of several runs; failures summed. */
const combine = (sides: Side[]): Side => {
  const sum = (f: (s: Side) => number) => sides.reduce((n, s) => n + f(s), 0);
  return {
    rps: median(sides.map((s) => s.rps)),
    p99: median(sides.map((s) => s.p99)),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
  };
};

/** A warm-up, then ROUNDS runs of SECONDS: their medians. */
export const measure = async (load: Load, connections: number): Promise<Side> => {
  await run(load, connections, WARMUP_SECONDS);
  const runs: Side[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await run(load, connections, SECONDS));
  return combine(runs);
};

/**
 * The service and the baseline under the same load, in turn, ROUNDS times after a warm-up of
 * each: medians of the rates, the p99s and the per-round ratios. Alternating keeps a slow spell
 * of a shared machine from landing on one side only (one 5 s run each swung ratios by ±20%);
 * which side goes first alternates too (service first, then baseline first…), so a drift
 * within a round, or what one side leaves running into the next run, favours neither.
 */
export const compare = async (service: Load, baseline: Load, connections: number) => {
  await run(service, connections, WARMUP_SECONDS);
  await run(baseline, connections, WARMUP_SECONDS);
  const rounds: { svc: Side; bl: Side }[] = [];
  const ratios = () => rounds.map((r) => (r.bl.rps > 0 ? r.svc.rps / r.bl.rps : 0));
  for (let i = 0; i < MAX_ROUNDS && (i < ROUNDS || spreadOf(ratios()) > SPREAD_LIMIT); i++) {
    if (i % 2 === 0) {
      const svc = await run(service, connections, SECONDS);
      rounds.push({ svc, bl: await run(baseline, connections, SECONDS) });
    } else {
      const bl = await run(baseline, connections, SECONDS);
      rounds.push({ svc: await run(service, connections, SECONDS), bl });
    }
  }
  const all = ratios();
  return {
    svc: combine(rounds.map((r) => r.svc)),
    bl: combine(rounds.map((r) => r.bl)),
    ratio: median(all),
    /** The per-round ratios' range, and how many rounds ran. */
    ratioRange: { min: Math.min(...all), max: Math.max(...all), rounds: all.length },
    p99Ratio: median(rounds.map((r) => (r.bl.p99 > 0 ? r.svc.p99 / r.bl.p99 : Infinity))),
  };
};

/** The interquartile range of `xs` as a share of their median: how far apart the middle half lies. */
export const spreadOf = (xs: number[]): number => {
  if (xs.length < 4) return Infinity;
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.round(p * (s.length - 1)))];
  const m = median(xs);
  return m > 0 ? (q(0.75) - q(0.25)) / m : Infinity;
};

/** Text columns (first, last) left-aligned, numbers right-aligned, each as wide as its widest cell. */
export const table = (rows: string[][]) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};
