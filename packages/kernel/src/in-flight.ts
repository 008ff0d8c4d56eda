/**
 * The operations under way on a networked engine's client, so that `close()` can let them
 * finish before it closes the client (closing first fails them with "topology is closed").
 * Once closing, new operations are refused with a clear error.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    private readonly what: string,
    /** What an operation's error becomes (an adapter's driver errors as EngineUnavailable). */
    private readonly failure: (err: unknown) => unknown = (err) => err,
  ) {}

  run<T>(op: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new Error(`${this.what}: closed`));
    const p = op().catch((err: unknown) => {
      throw this.failure(err);
    });
    this.track(p);
    return p;
  }

  /** Background work (index creation) that close() also waits for; its failure is handled where it is awaited. */
  track(p: Promise<unknown>): void {
    this.pending.add(p);
    const done = () => {
      this.pending.delete(p);
    };
    p.then(done, done);
  }

  /** Refuses new operations and resolves when every one under way has settled (however it ended). */
  async drain(): Promise<void> {
    this.closing = true;
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
