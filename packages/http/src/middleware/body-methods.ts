import type { Middleware } from 'koa';

/** The methods whose requests this API reads a body from. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** `middleware` for requests of a method with a body; the others go straight on. */
export const withBodyOnly =
  (middleware: Middleware): Middleware =>
  (ctx, next): Promise<unknown> =>
    BODY_METHODS.has(ctx.method) ? (middleware(ctx, next) as Promise<unknown>) : next();
