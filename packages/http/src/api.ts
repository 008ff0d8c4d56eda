import type { Application } from '@support/application';
import { IdempotencyStore } from './limits/idempotency-store';
import { MemoryCounterStore, SharedCounterStore } from './limits/rate-counters';
import { RateLimiter } from './limits/rate-limiter';

export { API_VERSION } from './version';

/** What the API's routes run on: the application, and what only the API process builds beside it. */
export interface Api {
  readonly app: Application;
  readonly limiter: RateLimiter;
  readonly idempotency: IdempotencyStore;
}

export interface ApiOptions {
  /** Count rate limits in the read store, shared by every API instance (scale-out); default: in this process. */
  sharedLimits?: boolean;
}

export const apiOf = (app: Application, options: ApiOptions = {}): Api => {
  const counters = options.sharedLimits ? new SharedCounterStore(app.engines.reads, app.log.child({ component: 'rate-limit' })) : new MemoryCounterStore();
  return {
    app,
    limiter: new RateLimiter(counters, app.clock, app.config.rateLimitScale),
    idempotency: new IdempotencyStore(app.engines.reads, app.clock),
  };
};
