import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Application } from '@support/application';
import { BODY_LIMIT_BYTES, identify, mountRoutes, openApiDocument, rateLimit, requestContext } from '@support/http';
import { API_VERSION } from './routes/meta';
import { ROUTES } from './routes';
import { mountMcp } from './mcp/mount';

export const createHttpApp = (app: Application): Koa => {
  const koa = new Koa({ proxy: app.config.trustProxy });
  const openapi = JSON.stringify(openApiDocument(ROUTES, { version: API_VERSION, serverUrl: '/v1' }));

  koa.use(requestContext(app.log));
  koa.use(async (ctx, next) => {
    // Readiness probe: outside /v1, no key, no rate limit.
    if (ctx.path === '/healthz' && ctx.method === 'GET') {
      ctx.body = { status: 'ok' };
      return;
    }
    await next();
  });
  koa.use(identify(app));
  koa.use(rateLimit(app));
  koa.use(bodyParser({ enableTypes: ['json'], jsonLimit: String(BODY_LIMIT_BYTES), strict: true }));

  const router = new Router({ prefix: '/v1' });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openapi;
  });
  mountRoutes(router, app, ROUTES);
  mountMcp(router, app);
  koa.use(router.routes());
  // Sets 405 / 501 with the Allow header; requestContext turns them into the envelope.
  koa.use(router.allowedMethods());
  return koa;
};
