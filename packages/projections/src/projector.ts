import { EventEmitter } from 'node:events';
import {
  comparePositions,
  ConsumerHealth,
  EventStore,
  formatPosition,
  parsePosition,
  Position,
  positionKey,
  RecordedEvent,
  RetryingSubscription,
  START,
} from '@support/eventstore';
import { Collection, Doc, ReadStore } from '@support/readstore';
import { Projection, ProjectedEvent } from './projection';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** How an API process learns that its own append has reached the read models. */
export interface ProjectionWatch {
  /** Resolves true once the projector has passed `position`, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

const CHECKPOINT = 'projector';

/**
 * Applies events to read models. Each document remembers the position of the last event
 * applied to it (`_pos`), so an event delivered again after a crash changes nothing twice;
 * the checkpoint only saves replay time.
 */
export class Projector implements ProjectionWatch {
  private readonly progress = new EventEmitter();
  private readonly routes = new Map<string, { projection: Projection; collection: Collection<Doc> }[]>();
  private position: Position = START;
  private subscription: RetryingSubscription | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: readonly Projection[],
    private readonly log: Logger,
    private readonly checkpoint = CHECKPOINT,
    private readonly backoff = { baseMs: 100, maxMs: 30_000 },
  ) {
    this.progress.setMaxListeners(0);
    for (const projection of projections) {
      const collection = store.collection<Doc>(projection.collection);
      for (const type of projection.handles) {
        this.routes.set(type, [...(this.routes.get(type) ?? []), { projection, collection }]);
      }
    }
  }

  async start(): Promise<void> {
    const saved = await this.store.getCheckpoint(this.checkpoint);
    this.position = saved ? parsePosition(saved) : START;
    this.log.info('projector starting', { from: formatPosition(this.position) });
    // A read-store error does not stop the projector: it retries the batch with backoff
    // (documents carry `_pos`, so what the failed attempt wrote is not applied twice).
    this.subscription = new RetryingSubscription(this.events, this.checkpoint, this.position, (batch) => this.applyBatch(batch), this.log, this.backoff);
    this.subscription.start();
  }

  /** Running or retrying, and why (GET /healthz). */
  health(): ConsumerHealth | null {
    return this.subscription?.health() ?? null;
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }

  /** Applies a batch, then saves the checkpoint and wakes the requests waiting on it. */
  async applyBatch(batch: readonly RecordedEvent[]): Promise<void> {
    for (const event of batch) await this.applyOne(event as unknown as ProjectedEvent);
    const last = batch[batch.length - 1].position;
    await this.store.setCheckpoint(this.checkpoint, formatPosition(last));
    this.position = last;
    this.progress.emit('progress');
  }

  private async applyOne(event: ProjectedEvent): Promise<void> {
    const key = positionKey(event.position);
    for (const { projection, collection } of this.routes.get(event.type) ?? []) {
      for (const id of projection.targets(event)) {
        const current = await collection.get(id);
        if (current && typeof current._pos === 'string' && current._pos >= key) continue;
        const next = projection.apply(current, event);
        if (next === null) {
          if (current) await collection.delete(id);
        } else {
          await collection.put({ ...next, _pos: key });
        }
      }
    }
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (comparePositions(this.position, position) >= 0) done(true);
      };
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.progress.off('progress', check);
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.progress.on('progress', check);
    });
  }

  /**
   * Rebuilds this projector's read models from the whole log: clears them and replays every
   * event. The checkpoint is left alone: a running projector re-applying later events
   * changes nothing, thanks to `_pos`.
   */
  async rebuild(onProgress?: (applied: number) => void): Promise<{ events: number; ms: number }> {
    const started = Date.now();
    for (const p of this.projections) await this.store.collection(p.collection).clear();
    let after = START;
    let count = 0;
    for (;;) {
      const batch = await this.events.readAll(after, 1000);
      if (batch.length === 0) break;
      for (const event of batch) await this.applyOne(event as unknown as ProjectedEvent);
      after = batch[batch.length - 1].position;
      count += batch.length;
      onProgress?.(count);
    }
    return { events: count, ms: Date.now() - started };
  }
}

/**
 * For an API process without a projector of its own (scale-out): polls the shared
 * checkpoint in the read store.
 */
export class CheckpointPoller implements ProjectionWatch {
  constructor(
    private readonly store: ReadStore,
    private readonly intervalMs = 20,
    private readonly checkpoint = CHECKPOINT,
  ) {}

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const saved = await this.store.getCheckpoint(this.checkpoint);
      if (saved && comparePositions(parsePosition(saved), position) >= 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
  }
}
