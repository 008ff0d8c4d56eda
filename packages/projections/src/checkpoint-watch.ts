import { EventEmitter } from 'node:events';
import { comparePositions, parsePosition, Position } from '@support/eventstore';
import type { ReadStore } from '@support/readstore';
import type { ProjectionWatch } from './projector-options';

/**
 * For an API process without a projector of its own (scale-out): knows the read models'
 * checkpoints from the projectors' signals (a callback per batch, over the bus), and reads
 * them from the read store only as a slow fallback while a request waits (a signal is a
 * hint: one lost costs at most `pollMs`). Waits until every checkpoint of one of the
 * `alternatives` has passed the position: the per-read-model projectors of the scale-out, or
 * the one projector that keeps them all.
 */
export class CheckpointWatch implements ProjectionWatch {
  private readonly known = new Map<string, Position>();
  private readonly progress = new EventEmitter();
  private poller: NodeJS.Timeout | null = null;
  private waiting = 0;
  /** Fallback reads of the checkpoints (health and tests: signals make them rare). */
  polls = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly alternatives: readonly (readonly string[])[],
    private readonly pollMs = 1000,
  ) {
    this.progress.setMaxListeners(0);
    this.checkpoints = [...new Set(alternatives.flat())];
  }

  private readonly checkpoints: string[];

  /** A projector's signal: `checkpoint` has reached `position`. */
  heard(checkpoint: string, position: Position): void {
    const before = this.known.get(checkpoint);
    if (before && comparePositions(before, position) >= 0) return;
    this.known.set(checkpoint, position);
    this.progress.emit('progress');
  }

  /** Reads every checkpoint from the read store (at start, and as the fallback). */
  async refresh(): Promise<void> {
    this.polls += 1;
    const saved = await Promise.all(this.checkpoints.map((c) => this.store.getCheckpoint(c)));
    saved.forEach((value, i) => {
      if (value) this.heard(this.checkpoints[i], parsePosition(value));
    });
  }

  private passed(position: Position): boolean {
    return this.alternatives.some((group) =>
      group.every((c) => {
        const p = this.known.get(c);
        return p !== undefined && comparePositions(p, position) >= 0;
      }),
    );
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.passed(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (this.passed(position)) done(true);
      };
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.progress.off('progress', check);
        if (--this.waiting === 0 && this.poller) {
          clearInterval(this.poller);
          this.poller = null;
        }
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.progress.on('progress', check);
      this.waiting += 1;
      this.poller ??= setInterval(() => void this.refresh().catch(() => undefined), this.pollMs);
    });
  }
}
