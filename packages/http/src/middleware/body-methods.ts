import type { Context, Middleware, Next } from 'koa';

/** The methods whose requests this API reads a body from. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * `chain`, in order, for requests of a method with a body; the others go straight on: one
 * check for a read instead of one middleware step per body layer.
 */
export const withBodyOnly = (...chain: Middleware[]): Middleware => {
  const run = (ctx: Context, i: number, next: Next): Promise<unknown> =>
    i === chain.length ? next() : (chain[i](ctx, () => run(ctx, i + 1, next)) as Promise<unknown>);
  return (ctx, next) => (BODY_METHODS.has(ctx.method) ? run(ctx, 0, next) : next());
};
