import { ReadStore } from './port';

/**
 * Saves a consumer's checkpoint at most every `intervalMs`, and the latest one on `flush`.
 * For idempotent consumers only: after a crash they replay what the last save did not cover,
 * which changes nothing, and in exchange a busy log costs one write per interval, not per batch.
 */
export class CheckpointWriter {
  private pending: string | null = null;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ReadStore,
    private readonly name: string,
    private readonly intervalMs = 250,
  ) {}

  save(value: string): Promise<void> {
    this.pending = value;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) return this.write();
    this.timer ??= setTimeout(() => {
      this.timer = null;
      // A failed timed write is not fatal: a later save or flush writes a newer value.
      this.write().catch(() => undefined);
    }, wait);
    return Promise.resolve();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.write();
  }

  private write(): Promise<void> {
    const value = this.pending;
    if (value === null) return this.writing;
    this.pending = null;
    this.lastWrite = Date.now();
    // Each write runs after the one before, whether that one failed or not.
    this.writing = this.writing.catch(() => undefined).then(() => this.store.setCheckpoint(this.name, value));
    return this.writing;
  }
}
