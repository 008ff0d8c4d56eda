import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * How many leading path segments index the table ('/v1/customers/…' → 'v1/customers'): enough
 * to leave a request a handful of candidate routes instead of every route of the API.
 */
const KEY_SEGMENTS = 2;

/** The first KEY_SEGMENTS segments of a path, lower-cased as the routes match (case-insensitively); null when shorter. */
const keyOf = (path: string): string | null => {
  let end = 0;
  for (let i = 0; i < KEY_SEGMENTS; i++) {
    if (path.charCodeAt(end) !== 47 /* / */) return null;
    const next = path.indexOf('/', end + 1);
    end = next === -1 ? path.length : next;
    if (next === -1 && i < KEY_SEGMENTS - 1) return null;
  }
  return path.slice(1, end).toLowerCase();
};

/** A route's key when its leading segments are literal text; null when one of them is a parameter or pattern. */
const literalKey = (path: string): string | null => {
  const key = keyOf(path);
  return key !== null && /^[a-z0-9._~-]+(\/[a-z0-9._~-]+)*$/.test(key) ? key : null;
};

/**
 * Dispatches requests over a @koa/router table. The routes and their matching stay @koa/router's
 * (its patterns, the parameters and their decoding, HEAD with GET, an optional trailing slash,
 * case); what does not run is its per-request work around them: `router.routes()` tests every
 * route's pattern, then builds and composes a middleware chain for the request, measured at
 * about a fifth of a GET's CPU on a fast day (docs/performance.md). Here each method's routes are
 * indexed once by their leading segments, and a request tries only those under its own and the
 * routes whose leading segments are parameters, in registration order: the first that matches
 * answers, as with @koa/router when handlers, as ours, never call `next`.
 *
 * Each route must be one handler: a table with `router.use()` or `router.param()` middleware is
 * refused when it is indexed rather than dispatched without them.
 */
export const dispatchRoutes = (router: Router): Middleware => {
  const byMethod = new Map<string, { keyed: Map<string, Router.Layer[]>; unkeyed: Router.Layer[] }>();
  router.stack.forEach((layer) => {
    if (layer.methods.length === 0 || layer.stack.length !== 1)
      throw new Error(`dispatchRoutes: ${String(layer.path)} must be one route with one handler (no router.use or router.param middleware)`);
  });
  for (const method of new Set(router.stack.flatMap((layer) => layer.methods))) {
    const routes = router.stack
      .filter((layer) => layer.methods.includes(method))
      .map((layer) => ({ layer, key: typeof layer.path === 'string' ? literalKey(layer.path) : null }));
    const unkeyed = routes.filter((r) => r.key === null).map((r) => r.layer);
    // A key's routes and the unkeyed ones, in registration order: the first match answers.
    const keyed = new Map<string, Router.Layer[]>();
    for (const { key } of routes)
      if (key !== null && !keyed.has(key))
        keyed.set(
          key,
          routes.filter((r) => r.key === key || r.key === null).map((r) => r.layer),
        );
    byMethod.set(method, { keyed, unkeyed });
  }
  const dispatch: Router.Middleware = (ctx, next) => {
    const table = byMethod.get(ctx.method);
    if (table === undefined) return next();
    const path = ctx.path;
    const key = keyOf(path);
    const candidates = (key !== null && table.keyed.get(key)) || table.unkeyed;
    for (const layer of candidates) {
      if (!layer.match(path)) continue;
      // What @koa/router leaves on the context for a handler (and for any tool reading it).
      ctx.params = layer.params(path, layer.captures(path), {}) as Record<string, string>;
      ctx.router = router;
      ctx._matchedRoute = layer.path;
      ctx._matchedRouteName = layer.name ?? undefined;
      return layer.stack[0](ctx, next) as Promise<unknown>;
    }
    return next();
  };
  return dispatch as Middleware;
};
