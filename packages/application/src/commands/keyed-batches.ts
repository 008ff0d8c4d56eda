interface Waiting<I> {
  item: I;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * One writer per key: work for a key runs one batch at a time, and whatever is added meanwhile
 * goes into the next batch together. Concurrent writers to one stream then neither conflict
 * nor wait in line one by one (64 webhook attempts failing at once make a few appends).
 */
export class KeyedBatches<I> {
  private readonly queues = new Map<string, Waiting<I>[]>();

  constructor(private readonly run: (key: string, items: I[]) => Promise<void>) {}

  /** Resolves once the batch holding `item` has run; rejects with that batch's error. */
  add(key: string, item: I): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) queue.push({ item, resolve, reject });
      else {
        this.queues.set(key, [{ item, resolve, reject }]);
        void this.drain(key);
      }
    });
  }

  private async drain(key: string): Promise<void> {
    for (;;) {
      const batch = this.queues.get(key)!.splice(0);
      if (batch.length === 0) break;
      try {
        await this.run(
          key,
          batch.map((w) => w.item),
        );
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.queues.delete(key);
  }
}
