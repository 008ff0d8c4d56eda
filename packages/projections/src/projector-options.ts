import type { Position } from '@support/eventstore';

/** How an API process learns that its own append has reached the read models. */
export interface ProjectionWatch {
  /** Resolves true once the projector has passed `position`, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/** The checkpoint of the projector that keeps every read model (standalone). */
export const CHECKPOINT = 'projector';
/** The checkpoint of one read model's projector (scale-out: read models are leased out one by one). */
export const readModelCheckpoint = (collection: string): string => `projector:${collection}`;

export interface ProjectorOptions {
  /** Default `projector`. */
  checkpoint?: string;
  /** Where to start when `checkpoint` was never saved (a read model split off the all-models projector). */
  fallbackCheckpoint?: string;
  backoff?: { baseMs: number; maxMs: number };
  /** Called after each batch (the scale-out signals it to API processes). */
  onCheckpoint?: (checkpoint: string, position: Position) => void;
  /**
   * Save the checkpoint at most this often instead of after every batch (the scale-out's
   * read-model projectors: API processes learn each batch from the signal, and a crash replays
   * a little, harmlessly, thanks to `_pos`). Default: after every batch.
   */
  saveEveryMs?: number;
  /** A rebuild writes its documents in bulk once it holds this many (default 200,000). */
  rebuildFlushAt?: number;
  /**
   * After this many failures of a batch in a row with the same error, the events no read model
   * can apply are found and set aside (see isolateBatch); 0: never. Default SET_ASIDE_AFTER.
   */
  setAsideAfter?: number;
}
