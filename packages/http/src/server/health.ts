import type { Context, Middleware } from 'koa';
import type { Application, LeaseHealth, Worker } from '@support/application';
import type { ConsumerHealth } from '@support/eventstore';
import { API_VERSION } from '../version';
import { registerProbeMetrics } from './metrics';

/** What GET /healthz and GET /readyz report about the process. */
export interface Probes {
  consumers(): ConsumerHealth[];
  leases(): LeaseHealth[];
}

export const probesOf = (app: Application, workers: readonly Worker[]): Probes => ({
  consumers: () => [app.projector?.health() ?? null, ...workers.flatMap((w) => w.health?.() ?? [])].filter((h): h is ConsumerHealth => h !== null),
  leases: () => workers.flatMap((w) => w.leases?.() ?? []),
});

/**
 * Outside /v1, no key, no rate limit.
 * - `GET /metrics`: the process's Prometheus metrics (docs/operating/observability.md).
 * - `GET /healthz` (alive): 200 while the process serves; `degraded` while a consumer retries
 *   after errors, naming it and the error, or while a projector has events set aside that no
 *   operator has skipped yet (`set_aside`); which leases this instance holds.
 * - `GET /readyz` (send it traffic): 200 when every engine it needs answers and no consumer of
 *   this process is further behind the log than READY_MAX_LAG_MS, else 503 saying which. A
 *   process that serves the API (`servesApi`) needs no bus: it carries only the projectors'
 *   checkpoint signals there, and a write waits by polling the checkpoints without them; a NATS
 *   blip would otherwise take every api instance out of its load balancer.
 */
export const healthEndpoints = (app: Application, probes: Probes, role: string, options: { servesApi?: boolean } = {}): Middleware => {
  registerProbeMetrics(app, probes, role);
  let wasReady = true;
  const answer = async (ctx: Context) => {
    if (ctx.path === '/metrics') {
      const { contentType, text } = await app.metrics.scrape();
      ctx.type = contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = text;
      return;
    }
    const consumers = probes.consumers();
    // The release this process runs: a rolling upgrade shows two.
    const identity = { role, instance: app.config.instanceId, version: API_VERSION };
    if (ctx.path === '/healthz') {
      const degraded = consumers.some((c) => c.status !== 'running' || (c.set_aside ?? 0) > 0);
      ctx.body = { status: degraded ? 'degraded' : 'ok', ...identity, consumers, leases: probes.leases() };
      return;
    }
    const engines = await app.engineChecks();
    const lagging = consumers.filter((c) => c.lag_ms > app.config.readyMaxLagMs).map((c) => c.name);
    const needed = Object.entries(engines).filter(([engine]) => !(options.servesApi && engine === 'bus'));
    const ready = needed.every(([, answer]) => answer === 'ok') && lagging.length === 0;
    // Each change once, not each probe's answer (a line every few seconds per instance while an engine is away).
    if (ready !== wasReady) {
      if (ready) app.log.info('ready again', { role, engines });
      else app.log.warn('not ready', { role, engines, lagging });
      wasReady = ready;
    }
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not_ready', ...identity, engines, lagging };
  };
  // Every other request goes straight on, without an async frame of its own.
  return (ctx, next) => (ctx.method === 'GET' && (ctx.path === '/healthz' || ctx.path === '/readyz' || ctx.path === '/metrics') ? answer(ctx) : next());
};
