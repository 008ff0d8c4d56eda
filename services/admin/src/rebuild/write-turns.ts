import type { Collection, Doc, ReadStore } from '@support/readstore';

/**
 * One writer at a time among a rebuild's workers, over shared memory: a worker that reaches a
 * bulk write while another is writing waits for it to end (blocking its thread, which has
 * nothing else to do meanwhile). On SQLite writers take turns anyway: this replaces a busy
 * timeout that a long bulk write or index build could outlast, and wakes the waiter at once.
 */
export class WriteTurns {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  async run<T>(write: () => Promise<T>): Promise<T> {
    while (Atomics.compareExchange(this.cell, 0, 0, 1) !== 0) Atomics.wait(this.cell, 0, 1);
    try {
      return await write();
    } finally {
      Atomics.store(this.cell, 0, 0);
      Atomics.notify(this.cell, 0, 1);
    }
  }
}

/** `store` whose rebuild writes (bulk writes, emptying for a load and its finish) take turns. */
export const takingTurns = (store: ReadStore, turns: WriteTurns): ReadStore =>
  new Proxy(store, {
    get(target, prop) {
      if (prop === 'collection') return (spec: Parameters<ReadStore['collection']>[0]) => collectionTakingTurns(target.collection(spec), turns);
      return ownMember(target, prop);
    },
  });

/** A member of `target` as it is, its methods bound to it (not to the proxy in front of it). */
const ownMember = (target: object, prop: string | symbol): unknown => {
  const value = Reflect.get(target, prop) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
};

const collectionTakingTurns = <T extends Doc>(c: Collection<T>, turns: WriteTurns): Collection<T> =>
  new Proxy(c, {
    get(target, prop) {
      if (prop === 'writeMany')
        return (puts: readonly T[], deletes: readonly string[], fresh?: ReadonlySet<string>) => turns.run(() => target.writeMany(puts, deletes, fresh));
      if (prop === 'clearForLoad')
        return async () => {
          const load = await turns.run(() => target.clearForLoad());
          return { finish: () => turns.run(() => load.finish()) };
        };
      return ownMember(target, prop);
    },
  });
