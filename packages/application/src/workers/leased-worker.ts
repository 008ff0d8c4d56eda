import type { Logger } from '@support/kernel';
import type { Leases } from './leases';
import type { LeaseHealth, Worker } from './worker';

/** Runs a loop step now and every `ms` after each step ends, until stopped; steps never overlap. */
export class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly ms: number,
    private readonly step: () => Promise<void>,
  ) {}

  /** Runs the first step and resolves after it; later steps follow on the timer. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.run();
  }

  /** One step now (tests drive the loop with this and an injected clock). */
  run(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.running.then(this.step).finally(() => {
      if (!this.stopped && !this.timer) this.timer = setTimeout(() => void this.run(), this.ms);
    });
    return this.running;
  }

  /** Stops the timer and waits for a step under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * Work that must run in one instance at a time (the relay, the SLA monitor): every instance
 * tries the lease; the holder runs the work and renews the lease every `tickMs`, the others
 * stand by and take over once it expires (a crash) or is released (a clean stop). An instance
 * that finds its lease taken over stops the work at once.
 */
export class LeasedWorker implements Worker {
  private token: string | null = null;
  /** When the lease held runs out by this process's clock, counted from before its last grant or renewal was asked. */
  private heldUntil = 0;
  private readonly ticker: Ticker;

  constructor(
    private readonly store: Leases,
    private readonly name: string,
    private readonly holder: string,
    private readonly work: readonly Worker[],
    private readonly log: Logger,
    tickMs = Math.max(50, Math.floor(store.ttlMs / 4)),
  ) {
    this.ticker = new Ticker(tickMs, () => this.tick());
  }

  get active(): boolean {
    return this.token !== null;
  }

  start(): Promise<void> {
    return this.ticker.start();
  }

  /**
   * One round: renew the lease held, or try to take it. Errors (read store down) wait for the
   * next round, but a lease that could not be renewed within its TTL has lapsed: another
   * instance may hold it by now, so the work stops until the lease is held again.
   */
  async tick(): Promise<void> {
    const asked = this.store.now();
    try {
      if (this.token !== null) {
        if (await this.store.renew(this.name, this.token)) {
          this.heldUntil = asked + this.store.ttlMs;
          return;
        }
        this.log.warn('lease lost to another instance; stopping the work', { lease: this.name, holder: this.holder });
        this.token = null;
        await this.stopWork();
        return;
      }
      const token = await this.store.acquire(this.name, this.holder);
      if (token === null) return;
      this.token = token;
      this.heldUntil = asked + this.store.ttlMs;
      this.log.info('lease acquired; starting the work', { lease: this.name, holder: this.holder });
      try {
        for (const w of this.work) await w.start();
      } catch (err) {
        this.log.error('work failed to start; releasing the lease', { lease: this.name, error: String(err) });
        await this.stopWork();
        this.token = null;
        await this.store.release(this.name, token);
      }
    } catch (err) {
      this.log.warn('lease round failed; trying again', { lease: this.name, error: err instanceof Error ? err.message : String(err) });
      if (this.token !== null && this.store.now() >= this.heldUntil) await this.lapse();
    }
  }

  private async lapse(): Promise<void> {
    this.log.warn('lease lapsed (not renewed within its TTL); stopping the work until it is held again', { lease: this.name, holder: this.holder });
    this.token = null;
    await this.stopWork().catch((err: unknown) => this.log.error('work failed to stop', { lease: this.name, error: String(err) }));
  }

  private async stopWork(): Promise<void> {
    for (const w of [...this.work].reverse()) await w.stop();
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
    const token = this.token;
    if (token === null) return;
    await this.stopWork();
    this.token = null;
    await this.store.release(this.name, token).catch(() => undefined);
    this.log.info('lease released', { lease: this.name, holder: this.holder });
  }

  health() {
    return this.active ? this.work.flatMap((w) => w.health?.() ?? []) : [];
  }

  leases(): LeaseHealth[] {
    return [{ name: this.name, role: this.active ? 'active' : 'standby' }];
  }
}
