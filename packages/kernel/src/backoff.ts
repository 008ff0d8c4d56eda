/** A capped exponential backoff: base × 2^(n−1), never above max. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait after the n-th failure in a row (1-based; 0 and below count as the first), with up
 * to `jitter` (a share, e.g. 0.1) added by `random` ([0, 1), like Math.random), capped at maxMs.
 * One product, so an exponent that overflows to Infinity stays Infinity (not NaN) and is capped.
 */
export const backoffMs = (failures: number, { baseMs, maxMs }: Backoff, jitter = 0, random: () => number = Math.random): number =>
  Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1) * (jitter > 0 ? 1 + jitter * random() : 1));
