import { backoffMs } from '@support/kernel';

/** Spec 6.4: at most 8 attempts per delivery (the first one included). */
export const MAX_ATTEMPTS = 8;

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  /** [0, 1), like Math.random (injectable for tests). */
  random?: () => number;
}

/** Jitter spreads retries of many endpoints that failed together (an outage) apart. */
const JITTER = 0.1;

/**
 * How long to wait after attempt `failedAttempt` (1-based) failed: base × 2^(n−1) plus up to
 * 10 % jitter, capped at maxMs. A receiver's Retry-After can lengthen the wait, never past
 * maxMs, so a hostile or confused receiver cannot park a delivery for days.
 */
export function retryDelayMs(failedAttempt: number, policy: RetryPolicy, retryAfterMs?: number | null): number {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) {
    throw new RangeError(`failedAttempt must be an integer ≥ 1, got ${failedAttempt}`);
  }
  let delay = backoffMs(failedAttempt, policy, JITTER, policy.random);
  if (retryAfterMs != null && Number.isFinite(retryAfterMs) && retryAfterMs > delay) {
    delay = Math.min(retryAfterMs, policy.maxMs);
  }
  return Math.round(delay);
}
