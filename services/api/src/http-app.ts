import Router from '@koa/router';
import { workspacesOf } from '@support/workspaces';
import Koa, { type Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import {
  API_VERSION,
  type Api,
  BODY_LIMIT_BYTES,
  dispatchRoutes,
  docAnchors,
  healthEndpoints,
  identify,
  mountRoutes,
  openApiDocument,
  Probes,
  rateLimit,
  requestContext,
  utf8Check,
  utf8Watch,
  withBodyOnly,
} from '@support/http';
import { ROUTES, TAGS } from './routes';
import { WEBHOOK_EVENTS } from './routes/webhook-events';
import { mountReferencePage } from './reference/page';
import { mcpOpenApiPath, mcpOpenApiSchemas, mountMcp } from '@support/agent/routes';

const NO_PROBES: Probes = { consumers: () => [], leases: () => [] };

/**
 * The middleware every request passes before the router, in order and named: createHttpApp
 * uses them all, `npm run bench:layers` measures what each adds.
 */
export const apiLayers = ({ app, limiter }: Api, probes: Probes = NO_PROBES, role = 'api'): { name: string; middleware: Middleware[] }[] => [
  { name: 'request context', middleware: [requestContext(app.log, { docs: docAnchors(ROUTES), metrics: app.metrics })] },
  { name: 'health', middleware: [healthEndpoints(app, probes, role, { servesApi: true })] },
  { name: 'identify', middleware: [identify(workspacesOf(app).authenticate)] },
  { name: 'rate limit', middleware: [rateLimit(limiter)] },
  // Only requests whose method carries a body go through body parsing: reads skip it in one step.
  {
    name: 'body (skipped by reads)',
    middleware: [
      withBodyOnly(utf8Watch(BODY_LIMIT_BYTES), bodyParser({ enableTypes: ['json'], jsonLimit: String(BODY_LIMIT_BYTES), strict: true }), utf8Check),
    ],
  },
];

const RELATIVE_SERVERS = '"servers":[{"url":"/v1"}]';

/** The API's OpenAPI document, `servers` relative (`/v1`): what GET /openapi.json serves (with the request's origin) and the client is generated from. */
export const apiDocument = () =>
  openApiDocument(ROUTES, {
    version: API_VERSION,
    serverUrl: '/v1',
    extraPaths: mcpOpenApiPath(),
    extraSchemas: mcpOpenApiSchemas(),
    tags: TAGS,
    webhooks: { tag: 'webhook_events', events: WEBHOOK_EVENTS },
  });

/** `probes`: what GET /healthz and /readyz report of the process (its consumers and leases). */
export const createHttpApp = (api: Api, probes: Probes = NO_PROBES, role = 'api'): Koa => {
  const { app } = api;
  const koa = new Koa({ proxy: app.config.trustProxy });
  // Serialised once; each request gets absolute `servers` (its own origin: behind TRUST_PROXY,
  // the forwarded protocol and host), so renderers and generators show usable URLs.
  const [openapiHead, openapiTail] = JSON.stringify(apiDocument()).split(RELATIVE_SERVERS);
  if (openapiTail === undefined) throw new Error('the OpenAPI document has no relative servers entry to replace');

  // Errors Koa reports outside a response (a client that hung up mid-answer: EPIPE, ECONNRESET)
  // are one JSON line, not Koa's default multi-line stack on stderr.
  koa.on('error', (err: Error & { code?: string; status?: number }) => {
    const fields = { code: err.code ?? null, error: err.message };
    const clientSide =
      ['EPIPE', 'ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_HTTP_REQUEST_TIMEOUT'].includes(err.code ?? '') ||
      (err.code ?? '').startsWith('HPE_');
    if (clientSide || (err.status ?? 500) < 500) app.log.info('client connection ended early', fields);
    else app.log.error('error outside a request', fields);
  });
  for (const layer of apiLayers(api, probes, role)) for (const middleware of layer.middleware) koa.use(middleware);

  const router = new Router({ prefix: '/v1' });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    // The servers entry is the origin asked for: a shared cache must key it by host.
    ctx.set('Vary', 'Host, X-Forwarded-Host');
    ctx.body = `${openapiHead}"servers":${JSON.stringify([{ url: `${ctx.origin}/v1`, description: 'This service' }])}${openapiTail}`;
  });
  mountRoutes(router, api, ROUTES);
  mountMcp(router, api);
  mountReferencePage(router);
  koa.use(dispatchRoutes(router));
  // No route took the request: 405 with Allow when the path exists with other methods (any
  // method, TRACE and PROPFIND included), else 404; requestContext turns both into the envelope.
  koa.use(async (ctx) => {
    if (ctx.body != null || ctx.status !== 404) return;
    const allowed = [...new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) return;
    ctx.set('Allow', allowed.join(', '));
    ctx.status = ctx.method === 'OPTIONS' ? 204 : 405;
  });
  return koa;
};
