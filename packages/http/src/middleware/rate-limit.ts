import type { Context, Middleware, Next } from 'koa';
import { nowOrLater } from '@support/application';
import type { RateDecision, RateLimiter, Tier } from '../limits/rate-limiter';
import { ApiError } from '../errors';
import type { Identity } from './identify';

const CHAT_PATHS = new Set(['/v1/agent/messages', '/v1/mcp']);

export const tierOfRequest = (method: string, path: string): Tier =>
  method === 'POST' && CHAT_PATHS.has(path.replace(/\/+$/, '')) ? 'chat' : method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';

/**
 * Spec 4.1 and 8: RateLimit-* on every response, 429 with Retry-After past the limit.
 * Keys count per key and per workspace; callers without a valid key count per address.
 */
export const rateLimit = (limiter: RateLimiter): Middleware => {
  const answer = (ctx: Context, next: Next, decision: RateDecision): Promise<unknown> => {
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new ApiError(
        429,
        `Rate limit exceeded: retry in ${decision.resetSeconds} second${decision.resetSeconds === 1 ? '' : 's'}`,
        'rate_limited',
        undefined,
        {
          'Retry-After': String(decision.resetSeconds),
        },
      );
    }
    return next();
  };
  // Not async: on the in-process counters the decision comes at once, without a promise a request.
  return (ctx, next) => {
    const identity = ctx.state.identity as Identity;
    const subject =
      'principal' in identity ? { key: identity.principal.keyId, workspace: identity.principal.workspaceId } : { key: `ip:${ctx.ip}`, workspace: null };
    const decision = limiter.check(tierOfRequest(ctx.method, ctx.path), subject);
    return nowOrLater(decision, (d) => answer(ctx, next, d));
  };
};
