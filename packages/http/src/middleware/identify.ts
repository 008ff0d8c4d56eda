import type { Middleware } from 'koa';
import type { Application, Principal } from '@support/application';

export type Identity = { principal: Principal } | { problem: 'missing' | 'malformed' | 'invalid' };

/**
 * Resolves the bearer key, if any, without refusing anything yet: routes decide whether they
 * need a key, and the rate limiter counts unidentified callers by address.
 */
export const identify =
  (app: Application): Middleware =>
  async (ctx, next) => {
    const header = ctx.get('Authorization');
    let identity: Identity;
    if (!header) identity = { problem: 'missing' };
    else {
      const m = /^Bearer +(\S+) *$/i.exec(header);
      const principal = m ? await app.authenticate(m[1]) : null;
      identity = principal ? { principal } : { problem: m ? 'invalid' : 'malformed' };
    }
    ctx.state.identity = identity;
    await next();
  };
