import type { Collection } from 'mongodb';

interface Slot {
  _id: string;
  expires_at: number;
}

interface Waiter {
  resolve(n: number): void;
  reject(err: unknown): void;
}

const slotId = (prefix: string, n: number) => `${prefix}${String(n).padStart(10, '0')}`;

/** The indexes of the documents an unordered insertMany refused as duplicates; throws on any other error. */
export const duplicates = (err: unknown): Set<number> => {
  const e = err as { code?: number; writeErrors?: { index: number; code: number } | { index: number; code: number }[] };
  const list = e.writeErrors === undefined ? [] : Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
  if (list.length === 0 || list.some((w) => w.code !== 11000)) throw err;
  return new Set(list.map((w) => w.index));
};

/**
 * Exact counters on MongoDB and FerretDB alike: each hit claims the next numbered slot
 * (`<key>@<window>#<n>`) by inserting it, and the unique `_id` makes every slot one hit's, in
 * whichever process. Not `$inc`: FerretDB 1.24 applies findOneAndUpdate's `$inc` as a read and
 * a separate write (racing hits got equal counts in the contract test).
 *
 * In one process the hits of a key are claimed by one loop: what arrives while an insert is
 * under way is claimed next, in one unordered insertMany of consecutive slots. A slot another
 * process took comes back as a duplicate; the loop then continues after the highest slot taken.
 */
export class SlotCounters {
  private readonly keys = new Map<string, { next: number; waiting: Waiter[]; running: boolean }>();

  constructor(private readonly slots: () => Collection<Slot>) {}

  hit(key: string, windowStart: number, windowMs: number): Promise<number> {
    const prefix = `${key}@${windowStart}#`;
    let state = this.keys.get(prefix);
    if (!state) {
      state = { next: 1, waiting: [], running: false };
      this.keys.set(prefix, state);
    }
    const s = state;
    return new Promise((resolve, reject) => {
      s.waiting.push({ resolve, reject });
      if (!s.running) void this.claim(prefix, s, windowStart + windowMs);
    });
  }

  /** Forgets the claim loops of windows before `windowStart` (their slots are deleted by the store). */
  forget(windowStart: number): void {
    for (const [prefix, state] of this.keys) {
      if (!state.running && Number(prefix.slice(prefix.lastIndexOf('@') + 1, -1)) < windowStart) this.keys.delete(prefix);
    }
  }

  private async claim(prefix: string, state: { next: number; waiting: Waiter[]; running: boolean }, expiresAt: number): Promise<void> {
    state.running = true;
    try {
      while (state.waiting.length > 0) {
        const batch = state.waiting.splice(0);
        try {
          let served = 0;
          while (served < batch.length) {
            const numbers = Array.from({ length: batch.length - served }, (_, i) => state.next + i);
            let taken = new Set<number>();
            try {
              await this.slots().insertMany(
                numbers.map((n) => ({ _id: slotId(prefix, n), expires_at: expiresAt })),
                { ordered: false },
              );
            } catch (err) {
              taken = duplicates(err);
            }
            numbers.forEach((n, i) => {
              if (!taken.has(i)) batch[served++].resolve(n);
            });
            state.next = numbers[numbers.length - 1] + 1;
            if (taken.size > 0) state.next = Math.max(state.next, (await this.highest(prefix)) + 1);
          }
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      state.running = false;
    }
  }

  private async highest(prefix: string): Promise<number> {
    const [last] = await this.slots()
      .find({ _id: { $gte: prefix, $lt: `${prefix}~` } }, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return last ? Number(last._id.slice(prefix.length)) : 0;
  }
}
