import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { API_VERSION } from '../version';
import Koa from 'koa';
import { type Application, stopTracing, type Worker } from '@support/application';
import { requestContext } from '../middleware/context';
import { healthEndpoints, Probes, probesOf } from './health';

export interface ServeOptions {
  /** Named in the start-up line, the logs and the health answers: `api`, `projector`, `standalone`… */
  role: string;
  /** Started after the engines, in order; stopped before them, in reverse. */
  workers?: readonly Worker[];
  /** The API: a Koa app given the health probes. Without it, the process serves only /healthz and /readyz. */
  api?: (probes: Probes) => Koa;
}

export interface RunningServer {
  server: Server;
  /** The API's base URL (`…/v1`); for a process without the API, its health server's origin. */
  baseUrl: string;
  /** Stops accepting, lets in-flight requests finish, then stops the workers and the application. */
  stop(): Promise<void>;
}

const DRAIN_MS = 10_000;

/** A process without the API still answers its health probes, and the error envelope elsewhere. */
const healthOnlyApp = (app: Application, probes: Probes, role: string): Koa => {
  const koa = new Koa();
  koa.use(requestContext(app.log, { metrics: app.metrics }));
  koa.use(healthEndpoints(app, probes, role));
  return koa;
};

/** What Node's HTTP parser refuses before a request reaches the app, by its error code. */
const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'The request (headers and body) did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large'],
};

/**
 * Node's own answers to a request it could not read (too slow, headers too large, not HTTP) in
 * the error envelope every other error has, so a client handles them the same way.
 */
const answerClientError = (err: NodeJS.ErrnoException, socket: Duplex): void => {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', 'bad_request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ success: false, error: { message, statusCode: status, code } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

export const serve = async (app: Application, options: ServeOptions): Promise<RunningServer> => {
  await app.start();
  const workers = options.workers ?? [];
  // Every worker is running (the API's agent has rebuilt its knowledge index) before the first request.
  for (const w of workers) await w.start();
  const probes = probesOf(app, workers);
  const koa = options.api ? options.api(probes) : healthOnlyApp(app, probes, options.role);
  // A client that is slow to send its headers or body is cut off (Node answers 408) instead of
  // holding a connection for Node's default five minutes.
  const { headersTimeoutMs, requestTimeoutMs } = app.config.http;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 2))),
    },
    koa.callback() as (req: IncomingMessage, res: ServerResponse) => void,
  );
  server.on('clientError', answerClientError);
  server.listen(app.config.port, app.config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = ['0.0.0.0', '::', ''].includes(app.config.host) ? '127.0.0.1' : app.config.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let stopping: Promise<void> | null = null;
  return {
    server,
    baseUrl: options.api ? `${origin}/v1` : origin,
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
        await closed;
        clearTimeout(force);
        for (const w of [...workers].reverse()) await w.stop();
        await app.stop();
      })()),
  };
};

/**
 * A service's main: serves, prints one line with `listening` and its URL once it accepts
 * requests (at any LOG_LEVEL: scripts wait for it), and on SIGTERM or SIGINT finishes the work
 * under way (requests, batches, deliveries; nothing unfinished is acknowledged) and exits 0.
 */
export const runUntilSignal = async (app: Application, options: ServeOptions): Promise<void> => {
  let running: RunningServer;
  try {
    running = await serve(app, options);
  } catch (err) {
    app.log.error('failed to start', { role: options.role, error: err instanceof Error ? err.stack : String(err) });
    await app.stop().catch(() => undefined);
    process.exit(1);
  }
  // The URL is one to reach it from this machine; `bound` is where it listens (0.0.0.0: every interface).
  const address = running.server.address() as AddressInfo;
  (app.log.announce ?? app.log.info)(`listening on ${running.baseUrl}`, {
    bound: `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    engines: app.engines.describe,
    role: options.role,
    instance: app.config.instanceId,
    version: API_VERSION,
  });
  const shutdown = (signal: string) => {
    app.log.info('shutting down', { signal });
    running
      .stop()
      .then(() => stopTracing())
      .then(
        () => {
          app.log.info('stopped');
          process.exit(0);
        },
        (err) => {
          app.log.error('shutdown failed', { error: String(err) });
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
};
