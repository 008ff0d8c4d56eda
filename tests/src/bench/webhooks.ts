import { writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generate } from 'selfsigned';

/**
 * Webhook dispatch measurements: a local HTTPS receiver (self-signed, trusted by the service
 * through NODE_EXTRA_CA_CERTS), a burst for delivery throughput, and an open-loop fixed rate
 * for end-to-end latency (request sent → webhook received, both on this process's clock).
 */

export interface Arrival {
  /** performance.now() when the request body had arrived. */
  at: number;
  eventType: string;
  body: { type?: string; data?: { content?: string } } | null;
}

export interface Receiver {
  port: number;
  caFile: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** Answers 200 at once and records every request. Start it before the service (its CA goes in the service's env). */
export const startReceiver = async (dir: string): Promise<Receiver> => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const caFile = path.join(dir, 'receiver-ca.pem');
  await writeFile(caFile, pems.cert);
  const arrivals: Arrival[] = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      let body: Arrival['body'] = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as Arrival['body'];
      } catch {
        /* recorded as null */
      }
      arrivals.push({ at, eventType: String(req.headers['service-event-type'] ?? ''), body });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
};

export interface Api {
  base: string;
  key: string;
}

const post = async (api: Api, route: string, body: unknown) => {
  const res = await fetch(`${api.base}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
};

const created = async (api: Api, route: string, body: unknown): Promise<Record<string, unknown>> => {
  const { status, body: answer } = await post(api, route, body);
  if (status !== 201 || !answer) throw new Error(`POST ${route} answered ${status} ${JSON.stringify(answer)}`);
  return answer;
};

export const createConversation = async (api: Api): Promise<string> => String((await created(api, '/conversations', {})).id);

export const registerEndpoint = async (api: Api, receiver: Receiver): Promise<string> =>
  String((await created(api, '/webhook_endpoints', { url: `https://localhost:${receiver.port}/hook`, enabled_events: ['message.created'] })).id);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The arrivals of message.created whose content starts with `prefix`, first one per content (redeliveries counted apart). */
const arrivalsFor = (receiver: Receiver, prefix: string) => {
  const first = new Map<string, Arrival>();
  let duplicates = 0;
  for (const a of receiver.arrivals) {
    const content = a.body?.data?.content;
    if (a.eventType !== 'message.created' || typeof content !== 'string' || !content.startsWith(prefix)) continue;
    if (first.has(content)) duplicates++;
    else first.set(content, a);
  }
  return { first, duplicates };
};

/** Waits until `count` distinct contents with `prefix` have arrived, or `timeoutMs`. */
const waitForArrivals = async (receiver: Receiver, prefix: string, count: number, timeoutMs: number) => {
  const until = performance.now() + timeoutMs;
  while (arrivalsFor(receiver, prefix).first.size < count && performance.now() < until) await sleep(20);
  return arrivalsFor(receiver, prefix);
};

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** Tallies answers by status (everything not 201 is reported) and their response times. */
class Statuses {
  readonly byStatus: Record<string, number> = {};
  readonly times: number[] = [];
  ok = 0;
  add(status: number | string, ms: number) {
    if (status === 201) this.ok++;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
    this.times.push(ms);
  }
  get failed() {
    return Object.entries(this.byStatus)
      .filter(([s]) => s !== '201')
      .reduce((n, [, c]) => n + c, 0);
  }
  /** POST response times, ms. */
  get response() {
    const sorted = [...this.times].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
  }
}

const postMessage = async (api: Api, conversation: string, content: string, statuses: Statuses) => {
  const start = performance.now();
  try {
    const res = await fetch(`${api.base}/conversations/${conversation}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
    });
    await res.arrayBuffer();
    statuses.add(res.status, performance.now() - start);
  } catch (err) {
    statuses.add(`error: ${(err as Error).message}`, performance.now() - start);
  }
};

export interface Throughput {
  messages: number;
  concurrency: number;
  posted: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** POST response times, ms. */
  response: { p50: number; p99: number; max: number };
  /** Wall time of the burst of POSTs, and the rate they were accepted at. */
  postSeconds: number;
  postRate: number;
  received: number;
  duplicates: number;
  complete: boolean;
  /** Received ÷ (last arrival − first arrival). */
  deliveriesPerSecond: number;
  /** First POST sent → last webhook received. */
  totalSeconds: number;
  /** Last POST answered → last webhook received: the backlog left when the writes stopped. */
  drainSeconds: number;
}

/** `messages` POSTs to one conversation, `concurrency` at a time; then waits for their webhooks. */
export const measureThroughput = async (
  api: Api,
  receiver: Receiver,
  conversation: string,
  messages: number,
  concurrency: number,
  timeoutMs: number,
): Promise<Throughput> => {
  const prefix = 'burst-';
  const statuses = new Statuses();
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < messages) await postMessage(api, conversation, `${prefix}${++next}`, statuses);
    }),
  );
  const posted = performance.now();
  const { first, duplicates } = await waitForArrivals(receiver, prefix, statuses.ok, timeoutMs);
  const times = [...first.values()].map((a) => a.at).sort((a, b) => a - b);
  const span = times.length > 1 ? (times[times.length - 1] - times[0]) / 1000 : 0;
  const last = times.length ? times[times.length - 1] : posted;
  return {
    messages,
    concurrency,
    posted: statuses.ok,
    non2xx: statuses.failed,
    statuses: statuses.byStatus,
    response: statuses.response,
    postSeconds: (posted - start) / 1000,
    postRate: statuses.ok / ((posted - start) / 1000),
    received: first.size,
    duplicates,
    complete: first.size >= statuses.ok,
    deliveriesPerSecond: span > 0 ? first.size / span : 0,
    totalSeconds: (last - start) / 1000,
    drainSeconds: Math.max(0, last - posted) / 1000,
  };
};

export interface Latency {
  targetRate: number;
  seconds: number;
  conversations: number;
  sent: number;
  /** (sent − 1) ÷ (last send − first send). */
  sendRate: number;
  accepted: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** POST response times, ms: most of the end-to-end time when it is large. */
  response: { p50: number; p99: number; max: number };
  matched: number;
  duplicates: number;
  p50: number;
  p99: number;
  max: number;
  maxP99: number;
}

/**
 * Open loop: one POST every 1000/rate ms whatever the answers, round-robin over the
 * conversations (writes to one conversation serialize on its stream). Latency = webhook
 * arrival − send time, matched through the message content.
 */
export const measureLatency = async (
  api: Api,
  receiver: Receiver,
  conversations: string[],
  rate: number,
  seconds: number,
  maxP99: number,
  timeoutMs: number,
): Promise<Latency> => {
  const prefix = 'lat-';
  const statuses = new Statuses();
  const sentAt = new Map<string, number>();
  const inFlight: Promise<void>[] = [];
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let n = 0;
  await new Promise<void>((resolve) => {
    // Sends every message that is due at each tick, so a late timer catches up rather than slowing the rate.
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      while (n < due) {
        const content = `${prefix}${++n}`;
        sentAt.set(content, performance.now());
        inFlight.push(postMessage(api, conversations[n % conversations.length], content, statuses));
      }
      if (n >= total) resolve();
      else setTimeout(tick, Math.max(0, start + n * interval - performance.now()));
    };
    tick();
  });
  const sends = [...sentAt.values()];
  const sendSpan = (sends[sends.length - 1] - sends[0]) / 1000;
  await Promise.all(inFlight);
  const { first, duplicates } = await waitForArrivals(receiver, prefix, statuses.ok, timeoutMs);
  const latencies = [...first.entries()].map(([content, a]) => a.at - sentAt.get(content)!).sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  return {
    targetRate: rate,
    seconds,
    conversations: conversations.length,
    sent: n,
    sendRate: sendSpan > 0 ? (n - 1) / sendSpan : 0,
    accepted: statuses.ok,
    non2xx: statuses.failed,
    statuses: statuses.byStatus,
    response: statuses.response,
    matched: first.size,
    duplicates,
    p50: percentile(latencies, 50),
    p99,
    max: latencies.length ? latencies[latencies.length - 1] : NaN,
    maxP99,
  };
};

export interface DeliveryRecords {
  deliveries: number;
  byStatus: Record<string, number>;
  /** Deliveries that needed more than one attempt (a failed attempt waits WEBHOOK_RETRY_BASE_MS, one minute by default). */
  retried: number;
  /** last_error of the deliveries not succeeded (a success clears it), by count. */
  errors: Record<string, number>;
}

/** The endpoint's delivery records as the service kept them, to explain a slow or missing webhook. */
export const deliveryRecords = async (api: Api, endpoint: string): Promise<DeliveryRecords> => {
  const records: DeliveryRecords = { deliveries: 0, byStatus: {}, retried: 0, errors: {} };
  for (let after: string | null = null; ;) {
    const res = await fetch(`${api.base}/webhook_endpoints/${endpoint}/deliveries?limit=100${after ? `&starting_after=${after}` : ''}`, {
      headers: { authorization: `Bearer ${api.key}` },
    });
    if (res.status !== 200) throw new Error(`GET /webhook_endpoints/${endpoint}/deliveries answered ${res.status}`);
    const page = (await res.json()) as {
      data: { status: string; attempt_count: number; last_error: string | null }[];
      has_more: boolean;
      next_cursor: string | null;
    };
    for (const d of page.data) {
      records.deliveries++;
      records.byStatus[d.status] = (records.byStatus[d.status] ?? 0) + 1;
      if (d.attempt_count > 1) records.retried++;
      if (d.last_error) records.errors[d.last_error] = (records.errors[d.last_error] ?? 0) + 1;
    }
    if (!page.has_more || !page.next_cursor) return records;
    after = page.next_cursor;
  }
};
