import type { LookupAddress, LookupOptions } from 'node:dns';
import https from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { checkAddress, checkUrlForm, resolveAndCheck, type GuardOptions } from './url-guard';

/** One HTTP POST of one delivery. The dispatcher owns retries, this owns the wire. */

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Covers connect, TLS, and the response up to its end (or 2 KiB). Default 10 000 (spec 6.2). */
  timeoutMs?: number;
}

export interface SendResult {
  /** A 2xx response was received in time. */
  ok: boolean;
  status: number | null;
  /** The first 2 KiB of the response body, utf8. */
  responseBody: string | null;
  /** e.g. 'timeout after 10000 ms', 'refused: resolves to 127.0.0.1, a loopback address', 'ECONNREFUSED' */
  error: string | null;
  /** Retry-After (seconds or HTTP date) of a 429 or 503, in ms. */
  retryAfterMs: number | null;
  durationMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 2048;

/** Shared keep-alive pool: deliveries to one receiver reuse their TLS connections. */
/** Idle pooled sockets close after this, before the common 5 s server keep-alive timeout. */
const IDLE_SOCKET_MS = 4000;
const defaultAgent = new https.Agent({ keepAlive: true, maxSockets: 50, timeout: IDLE_SOCKET_MS });
const agentsByCa = new Map<string, https.Agent>();

function agentFor(extra: SendExtra): https.Agent {
  if (extra.agent) return extra.agent;
  if (extra.ca === undefined) return defaultAgent;
  // `ca` replaces the default trust store for this agent only.
  const key = extra.ca.toString();
  let agent = agentsByCa.get(key);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, maxSockets: 50, timeout: IDLE_SOCKET_MS, ca: extra.ca });
    agentsByCa.set(key, agent);
  }
  return agent;
}

export interface SendExtra {
  ca?: string | Buffer;
  agent?: https.Agent;
}

class RefusedError extends Error {
  readonly code = 'EWEBHOOKREFUSED';
}

/**
 * The lookup Node calls when it opens a connection: resolves, runs the guard on every address,
 * and fails the connection when one is refused. Checking here rather than before the request
 * leaves no gap for a DNS answer that changes between the check and the connect.
 */
function guardedLookup(guard: GuardOptions): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolveAndCheck(hostname, guard).then(
      (result) => {
        if (!result.ok) return callback(new RefusedError(result.reason), '', 0);
        const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const addresses: LookupAddress[] = wanted === 4 || wanted === 6 ? result.addresses.filter((a) => a.family === wanted) : result.addresses;
        const first = addresses[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`no IPv${wanted} address for ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err, '', 0);
        }
        // Node asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily).
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describeError(err: unknown): string {
  if (err instanceof RefusedError) return `refused: ${err.message}`;
  let e = err as (NodeJS.ErrnoException & { errors?: unknown[] }) | null;
  // Happy-eyeballs failures arrive as an AggregateError over the attempts.
  if (e && !e.code && Array.isArray(e.errors) && e.errors.length > 0) e = e.errors[0] as NodeJS.ErrnoException;
  const code = e?.code;
  const message = e?.message ?? String(err);
  if (code && /^E[A-Z]+$/.test(code)) return code; // ECONNREFUSED, ECONNRESET, ENOTFOUND…
  return code ? `${code}: ${message}` : message; // TLS and certificate errors keep their detail
}

function buildHeaders(given: Record<string, string>, body: Buffer): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(given)) {
    if (name.toLowerCase() !== 'content-length') headers[name.toLowerCase()] = value;
  }
  headers['content-type'] ??= 'application/json';
  headers['user-agent'] ??= 'Service-Webhooks/1.0';
  headers['content-length'] = String(body.length);
  return headers;
}

/** POSTs one delivery. Never throws: every outcome is a SendResult. */
export async function sendWebhook(req: SendRequest, guard: GuardOptions, extra: SendExtra = {}, started = performance.now()): Promise<SendResult> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = (partial: Partial<SendResult>): SendResult => ({
    ok: false,
    status: null,
    responseBody: null,
    error: null,
    retryAfterMs: null,
    ...partial,
    durationMs: Math.round(performance.now() - started),
  });

  const form = checkUrlForm(req.url, guard);
  if (!form.ok) return result({ error: `refused: ${form.reason}` });
  // Node does not call `lookup` for an IP literal, so the guard runs here for those.
  if (form.isIpLiteral) {
    const verdict = checkAddress(form.host, guard);
    if (!verdict.ok) return result({ error: `refused: ${verdict.reason}` });
  }

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let retryAfterMs: number | null = null;
    let timer: NodeJS.Timeout | undefined;
    const finish = (partial: Partial<SendResult>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result({ status, retryAfterMs, ...partial }));
    };

    const body = Buffer.from(req.body, 'utf8');
    let request: ReturnType<typeof https.request>;
    try {
      request = https.request({
        method: 'POST',
        hostname: form.host,
        port: form.url.port === '' ? 443 : Number(form.url.port),
        path: `${form.url.pathname}${form.url.search}`,
        headers: buildHeaders(req.headers, body),
        agent: agentFor(extra),
        ...(extra.ca !== undefined ? { ca: extra.ca } : {}),
        lookup: guardedLookup(guard),
      });
    } catch (err) {
      finish({ error: describeError(err) });
      return;
    }

    // One deadline for the whole delivery, a retry on a new connection included.
    timer = setTimeout(
      () => {
        finish({ error: `timeout after ${timeoutMs} ms` });
        request.destroy();
      },
      Math.max(0, started + timeoutMs - performance.now()),
    );

    request.on('socket', (socket) => {
      // A pooled socket skips the lookup: check where it is connected under this guard.
      if (!request.reusedSocket || !socket.remoteAddress) return;
      const verdict = checkAddress(socket.remoteAddress, guard);
      if (!verdict.ok) request.destroy(new RefusedError(verdict.reason));
    });
    request.on('error', (err) => {
      // A pooled socket the receiver closed just as we reused it: nothing reached it, so try
      // once more on a new connection instead of booking a failure (Node's documented remedy).
      const code = (err as NodeJS.ErrnoException).code;
      const stale = request.reusedSocket && status === null && (code === 'ECONNRESET' || code === 'EPIPE');
      if (stale && !settled && performance.now() < started + timeoutMs) {
        settled = true;
        clearTimeout(timer);
        resolve(sendWebhook(req, guard, extra, started));
        return;
      }
      finish({ error: describeError(err) });
    });
    request.on('response', (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      if (status === 429 || status === 503) {
        const header: string | string[] | undefined = res.headers['retry-after'];
        retryAfterMs = parseRetryAfter(typeof header === 'string' ? header : header?.[0]);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const complete = (): void => {
        const text = new StringDecoder('utf8').write(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT));
        finish({ ok: status !== null && status >= 200 && status < 300, responseBody: text });
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) {
          // Enough for the delivery log; the rest is not worth reading.
          complete();
          res.destroy();
        }
      });
      res.on('end', complete);
      res.on('error', (err) => finish({ error: describeError(err) }));
      res.on('close', () => finish({ error: 'connection closed before the response ended' }));
    });
    request.end(body);
  });
}
