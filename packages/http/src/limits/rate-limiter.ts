import { nowOrLater } from '@support/application';
import type { Clock } from '@support/application';
import { CounterStore } from './rate-counters';

export type Tier = 'read' | 'write' | 'chat';

/** Spec section 8: requests per 60-second window. */
export const LIMITS: Record<Tier, { key: number; workspace: number }> = {
  read: { key: 120, workspace: 360 },
  write: { key: 60, workspace: 180 },
  chat: { key: 20, workspace: 60 },
};
export const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  /** The limit that binds tightest, for the RateLimit-* headers. */
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed 60-second windows, per key and per workspace. A request refused by the key's own
 * limit does not use up the workspace's budget.
 */
export class RateLimiter {
  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock,
    private readonly scale = 1,
  ) {}

  private limitOf(tier: Tier, scope: 'key' | 'workspace') {
    return Math.max(1, Math.floor(LIMITS[tier][scope] * this.scale));
  }

  /** A decision at once on counters in this process; a promise of one on shared counters. */
  check(tier: Tier, subject: { key: string; workspace: string | null }): RateDecision | Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const windowStart = now - (now % WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    const keyLimit = this.limitOf(tier, 'key');
    const byWorkspace = (keyCount: number): RateDecision | Promise<RateDecision> => {
      const decision: RateDecision = { allowed: keyCount <= keyLimit, limit: keyLimit, remaining: Math.max(0, keyLimit - keyCount), resetSeconds };
      if (!decision.allowed || subject.workspace === null) return decision;
      const wsLimit = this.limitOf(tier, 'workspace');
      const tighter = (wsCount: number): RateDecision => {
        const wsRemaining = Math.max(0, wsLimit - wsCount);
        return wsCount > wsLimit || wsRemaining < decision.remaining
          ? { allowed: wsCount <= wsLimit, limit: wsLimit, remaining: wsRemaining, resetSeconds }
          : decision;
      };
      const wsCount = this.counters.hit(`w:${subject.workspace}:${tier}`, windowStart, WINDOW_MS);
      return nowOrLater(wsCount, tighter);
    };
    const keyCount = this.counters.hit(`k:${subject.key}:${tier}`, windowStart, WINDOW_MS);
    return nowOrLater(keyCount, byWorkspace);
  }
}
