import type { ReadStore } from '@support/readstore';
import type { Logger } from '@support/application';
/** Counts hits per key and fixed window. A port, so instances can share one store. */
export interface CounterStore {
  /**
   * Adds one hit to `key` in the window starting at `windowStart`; returns the new count, at
   * once where the counters are in this process (no promise on every request), else a promise.
   */
  hit(key: string, windowStart: number, windowMs: number): number | Promise<number>;
}

/** One process's counters (the embedded default). Old windows are dropped as time moves on. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();
  private lastSweep = 0;

  hit(key: string, windowStart: number, windowMs: number): number {
    if (windowStart - this.lastSweep >= windowMs) {
      for (const [k, v] of this.counts) if (v.windowStart < windowStart) this.counts.delete(k);
      this.lastSweep = windowStart;
    }
    const entry = this.counts.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      this.counts.set(key, { windowStart, count: 1 });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }
}

/**
 * Counters every API instance shares, in the read store (scale-out): two instances together
 * hold a workspace to its limit. When the read store cannot count, it fails open to this
 * process's own counters (each instance then enforces the limits alone, so N instances allow
 * up to N times them) and says so in the log, once a minute at most: an outage of the counter
 * store does not take the API down with it.
 */
export class SharedCounterStore implements CounterStore {
  private readonly local = new MemoryCounterStore();
  private lastWarning = -Infinity;

  constructor(
    private readonly reads: ReadStore,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    try {
      return await this.reads.incrementCounter(key, windowStart, windowMs);
    } catch (err) {
      if (this.now() - this.lastWarning >= 60_000) {
        this.lastWarning = this.now();
        this.log.warn('shared rate-limit counters unreachable; counting in this process meanwhile (fail open)', { error: String(err) });
      }
      return this.local.hit(key, windowStart, windowMs);
    }
  }
}
