/** Counts hits per key and fixed window. A port, so instances can share one store. */
export interface CounterStore {
  /** Adds one hit to `key` in the window starting at `windowStart`; returns the new count. */
  hit(key: string, windowStart: number, windowMs: number): Promise<number>;
}

/** One process's counters (the embedded default). Old windows are dropped as time moves on. */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();
  private lastSweep = 0;

  async hit(key: string, windowStart: number, windowMs: number): Promise<number> {
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
