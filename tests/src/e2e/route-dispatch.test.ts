import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import t from 'tap';
import { ROUTES } from '@support/api';
import { dispatchRoutes } from '@support/http';

/**
 * dispatchRoutes against @koa/router's own `routes()`, over HTTP: the API's route table, each
 * handler answering which route took the request and its parameters. Every request below must
 * be answered the same by both: the same route, the same parameters, the same status.
 */
const table = () => {
  const router = new Router({ prefix: '/v1' });
  const answer = (name: string) => (ctx: Koa.Context) => {
    ctx.body = { route: name, params: ctx.params as unknown };
  };
  router.get('/openapi.json', answer('openapi'));
  ROUTES.forEach((r, i) => {
    router[r.method](r.path, answer(`${r.method} ${r.path}`));
    // Routes whose leading segments are parameters, among the others: tried in registration order.
    if (i === 3) router.get('/:anything/customers', answer('GET /:anything/customers'));
    if (i === 5) router.get('/customers/:id', answer('GET /customers/:id again'));
  });
  router.post('/mcp', answer('POST /mcp'));
  router.get('/:first', answer('GET /:first'));
  return router;
};

const serve = async (middleware: Koa.Middleware) => {
  const koa = new Koa();
  koa.use(middleware);
  const server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as AddressInfo).port };
};

const ask = (port: number, method: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

/** Each route's path with sample parameters, and the ways a client may spell it. */
const paths = () => {
  const concrete = [...new Set(ROUTES.map((r) => `/v1${r.path}`.replace(/:(\w+)/g, (_, name: string) => `${name}_01`)))];
  const variants = concrete.flatMap((p) => [p, `${p}/`, p.toUpperCase(), `${p}?limit=2`, p.replace(/_01/g, '%5F01%20x')]);
  const odd = [
    '/',
    '/v1',
    '/v1/',
    '/v2/customers',
    '//v1/customers',
    '/v1//customers',
    '/v1/customers/a/b',
    '/v1/openapi.json',
    '/v1/mcp',
    '/v1/x/customers',
    '/v1/customers/customers',
    '/v1/zzz',
    '/v1/%E2%82%AC',
    '/v1/customers/%E0%A4%A',
  ];
  return [...variants, ...odd];
};

t.test('dispatchRoutes answers every request as @koa/router would', async (t) => {
  const router = table();
  const reference = await serve(router.routes() as Koa.Middleware);
  const dispatched = await serve(dispatchRoutes(router));
  t.teardown(() => {
    reference.server.close();
    dispatched.server.close();
  });
  const differences: string[] = [];
  let matched = 0;
  for (const path of paths()) {
    for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT']) {
      const [want, got] = [await ask(reference.port, method, path), await ask(dispatched.port, method, path)];
      if (want.status === 200) matched += 1;
      if (want.status !== got.status || want.body !== got.body) differences.push(`${method} ${path}: ${want.status} ${want.body} / ${got.status} ${got.body}`);
    }
  }
  t.strictSame(differences, []);
  // The comparison covers requests that matched, not only 404s.
  t.ok(matched > ROUTES.length * 2, `${matched} requests matched a route`);
});

t.test('a route with middleware of its own is refused, not dispatched without it', async (t) => {
  const withUse = new Router();
  withUse.use((_ctx, next) => next());
  withUse.get('/x', () => undefined);
  t.throws(() => dispatchRoutes(withUse), /one route with one handler/);
  const withParam = new Router();
  withParam.param('id', (_id, _ctx, next) => next());
  withParam.get('/x/:id', () => undefined);
  t.throws(() => dispatchRoutes(withParam), /one route with one handler/);
});
