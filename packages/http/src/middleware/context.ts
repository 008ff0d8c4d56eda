import { randomFillSync } from 'node:crypto';
import type { Middleware } from 'koa';
import { type Logger, type Metrics, nameActiveSpan } from '@support/application';
import { ApiError, envelope, toApiError } from '../errors';
import type { DocAnchor } from '../openapi/doc-links';

// 128 random bits per request id, from a pool refilled every 256 ids: what randomUUID does
// inside, without formatting a UUID and stripping its dashes on every request.
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;
export const newRequestId = (): string => {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 16;
  return `req_${pool.toString('hex', offset - 16, offset)}`;
};

/**
 * Outermost middleware: gives every request an id (Request-Id header), turns every error
 * into the spec's envelope, and keeps stacks in the log, never in the response. With
 * `docs`, each error names its section of the reference page at `<origin>/v1/docs`; with
 * `metrics`, every answer is timed by route and status.
 */
export const requestContext = (log: Logger, options: { docs?: DocAnchor; metrics?: Metrics } = {}): Middleware => {
  const { docs, metrics } = options;
  const durations = metrics?.histogram('http_server_request_duration_seconds', 'HTTP requests answered, by method, route and status', [
    'method',
    'route',
    'status',
  ]);
  return async (ctx, next) => {
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.set('Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
      // Statuses set without a body (no route; a known path with another method) get the envelope too.
      if (ctx.body == null) {
        if (ctx.status === 404) throw new ApiError(404, `Unrecognized request URL (${ctx.method} ${ctx.path})`, 'not_found');
        if (ctx.status === 405)
          throw new ApiError(405, `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`, 'method_not_allowed', undefined, {
            Allow: ctx.response.get('Allow'),
          });
      }
    } catch (err) {
      const docsUrl = (status: number) => (docs ? `${ctx.origin}/v1/docs#${docs(ctx.method, ctx.path, status)}` : undefined);
      const api = toApiError(err);
      if (api) {
        ctx.status = api.status;
        ctx.body = envelope(api.status, api.message, api.code, api.details, docsUrl(api.status));
        for (const [name, value] of Object.entries(api.headers)) ctx.set(name, value);
      } else {
        log.error('unhandled error', { request_id: requestId, method: ctx.method, path: ctx.path, error: err instanceof Error ? err.stack : String(err) });
        ctx.status = 500;
        ctx.body = envelope(500, 'Internal server error. Quote the request id when reporting it.', 'internal_error', { request_id: requestId }, docsUrl(500));
      }
    } finally {
      const fields = { request_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 };
      // A probe's 503 is its answer, every few seconds while an engine is away: /readyz logs the change once.
      if (ctx.status >= 500 && !PROBES.has(ctx.path)) log.warn('request failed', fields);
      else log.debug('request', fields);
      // The route's pattern, never the raw path: one series per operation, whatever the ids.
      const route = (ctx._matchedRoute as string | undefined) ?? (PROBES.has(ctx.path) ? ctx.path : 'unmatched');
      durations?.observe({ method: ctx.method, route, status: String(ctx.status) }, (performance.now() - started) / 1000);
      // The HTTP server span (OpenTelemetry's instrumentation) named after the operation.
      if (ctx._matchedRoute) nameActiveSpan(`${ctx.method} ${route}`, { 'http.route': route });
    }
  };
};

/** The probe endpoints, measured under their own path. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
