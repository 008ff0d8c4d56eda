import type { Middleware } from 'koa';
import { nowOrLater, type Authenticate, type Principal } from '@support/application';

export type Identity = { principal: Principal } | { problem: 'missing' | 'malformed' | 'invalid' };

/**
 * Resolves the bearer key, if any, without refusing anything yet: routes decide whether they
 * need a key, and the rate limiter counts unidentified callers by address.
 */
export const identify =
  (authenticate: Authenticate): Middleware =>
  // Not async: a hot key is known at once (authenticate's cache), and its requests go on without a promise.
  (ctx, next) => {
    const header = ctx.get('Authorization');
    const m = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
    if (!m) {
      ctx.state.identity = { problem: header ? 'malformed' : 'missing' } satisfies Identity;
      return next();
    }
    const found = authenticate(m[1]);
    const proceed = (principal: Principal | null): Promise<unknown> => {
      ctx.state.identity = (principal ? { principal } : { problem: 'invalid' }) satisfies Identity;
      return next();
    };
    return nowOrLater(found, proceed);
  };
