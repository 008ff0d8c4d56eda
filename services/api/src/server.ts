import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Application } from '@support/application';
import type { ConsumerHealth } from '@support/eventstore';
import { createHttpApp } from './http-app';

/** A background part of the process (dispatcher, monitors): started after the app, stopped before it. */
export interface Worker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Its log consumers, for GET /healthz. */
  health?(): ConsumerHealth | null | (ConsumerHealth | null)[];
}

export interface RunningServer {
  server: Server;
  baseUrl: string;
  /** Stops accepting, lets in-flight requests finish, then stops the application. */
  stop(): Promise<void>;
}

const DRAIN_MS = 10_000;

export const listen = async (app: Application, workers: readonly Worker[] = []): Promise<RunningServer> => {
  await app.start();
  // The agent's knowledge index is rebuilt from the log before the first request is served.
  await app.knowledge.start();
  for (const w of workers) await w.start();
  const health = () =>
    [app.projector?.health() ?? null, app.knowledge.health(), ...workers.flatMap((w) => w.health?.() ?? [])].filter((h): h is ConsumerHealth => h !== null);
  // A client that is slow to send its headers or body is cut off (Node answers 408) instead of
  // holding a connection for Node's default five minutes.
  const { headersTimeoutMs, requestTimeoutMs } = app.config.http;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 2))),
    },
    createHttpApp(app, health).callback() as (req: IncomingMessage, res: ServerResponse) => void,
  );
  server.listen(app.config.port, app.config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = ['0.0.0.0', '::', ''].includes(app.config.host) ? '127.0.0.1' : app.config.host;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`;
  let stopping: Promise<void> | null = null;
  return {
    server,
    baseUrl,
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
        await closed;
        clearTimeout(force);
        for (const w of [...workers].reverse()) await w.stop();
        await app.knowledge.stop();
        await app.stop();
      })()),
  };
};

/** Runs until SIGTERM or SIGINT, then drains and exits 0 (operator interface). */
export const runUntilSignal = async (app: Application, describe: string, workers: readonly Worker[] = []): Promise<void> => {
  const running = await listen(app, workers);
  // Printed at any LOG_LEVEL: scripts wait for this line.
  (app.log.announce ?? app.log.info)(`listening on ${running.baseUrl}`, { engines: app.engines.describe, role: describe });
  const shutdown = (signal: string) => {
    app.log.info('shutting down', { signal });
    running.stop().then(
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
