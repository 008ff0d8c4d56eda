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
import { CheckpointWriter, Collection, Doc, ReadStore } from '@support/readstore';
import { Projection, ProjectedEvent } from './projection';
import { REBUILD_FLUSH_AT, WriteBehind } from './write-behind';

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
}

type Route = { projection: Projection; collection: Collection<Doc> };

/**
 * Applies events to read models. Each document remembers the position of the last event
 * applied to it (`_pos`), so an event delivered again after a crash changes nothing twice;
 * the checkpoint only saves replay time.
 */
export class Projector implements ProjectionWatch {
  private readonly progress = new EventEmitter();
  private readonly routes = new Map<string, Route[]>();
  private position: Position = START;
  private subscription: RetryingSubscription | null = null;
  private writer: CheckpointWriter | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: readonly Projection[],
    private readonly log: Logger,
    private readonly options: ProjectorOptions = {},
  ) {
    this.progress.setMaxListeners(0);
    for (const projection of projections) {
      const collection = store.collection<Doc>(projection.collection);
      for (const type of projection.handles) {
        this.routes.set(type, [...(this.routes.get(type) ?? []), { projection, collection }]);
      }
    }
  }

  get checkpoint(): string {
    return this.options.checkpoint ?? CHECKPOINT;
  }

  async start(): Promise<void> {
    const fallback = this.options.fallbackCheckpoint;
    const saved = (await this.store.getCheckpoint(this.checkpoint)) ?? (fallback ? await this.store.getCheckpoint(fallback) : null);
    this.position = saved ? parsePosition(saved) : START;
    this.log.info('projector starting', { checkpoint: this.checkpoint, from: formatPosition(this.position) });
    // A read-store error does not stop the projector: it retries the batch with backoff
    // (documents carry `_pos`, so what the failed attempt wrote is not applied twice).
    this.subscription = new RetryingSubscription(
      this.events,
      this.checkpoint,
      this.position,
      (batch) => this.applyBatch(batch),
      this.log,
      this.options.backoff,
    );
    this.subscription.start();
  }

  /** Running or retrying, and why (GET /healthz). */
  health(): ConsumerHealth | null {
    return this.subscription?.health() ?? null;
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    await this.writer?.flush();
  }

  /** Applies a batch, then saves the checkpoint and wakes the requests waiting on it. */
  async applyBatch(batch: readonly RecordedEvent[]): Promise<void> {
    // The batch's documents are folded in memory and written together with the checkpoint:
    // one transaction on SQLite; on MongoDB a bulk write per read model, then the checkpoint.
    // A crash part-way there leaves some written without the checkpoint: replayed events skip
    // them by `_pos`.
    const docs = new WriteBehind();
    for (const event of batch) {
      const reading = this.applyOne(event as unknown as ProjectedEvent, docs);
      if (reading) await reading;
    }
    const last = batch[batch.length - 1].position;
    const saveNow = this.options.saveEveryMs === undefined;
    await this.store.writeBatch(docs.take(), saveNow ? { name: this.checkpoint, value: formatPosition(last) } : undefined);
    if (!saveNow) await (this.writer ??= new CheckpointWriter(this.store, this.checkpoint, this.options.saveEveryMs)).save(formatPosition(last));
    this.position = last;
    this.progress.emit('progress');
    this.options.onCheckpoint?.(this.checkpoint, last);
  }

  /**
   * Applies one event to the documents it targets. Synchronous when every target is already
   * known to the cache (a rebuild's usual case: no promise per event); otherwise a promise
   * that reads the unknown ones first.
   */
  private applyOne(event: ProjectedEvent, docs: WriteBehind): Promise<void> | undefined {
    const routes = this.routes.get(event.type);
    if (routes === undefined) return undefined;
    let reads: Promise<void>[] | undefined;
    for (const { projection, collection } of routes)
      for (const id of projection.targets(event)) if (docs.peek(collection, id) === undefined) (reads ??= []).push(docs.load(collection, id));
    if (reads) return Promise.all(reads).then(() => this.applyKnown(event, routes, docs));
    this.applyKnown(event, routes, docs);
    return undefined;
  }

  private applyKnown(event: ProjectedEvent, routes: readonly Route[], docs: WriteBehind): void {
    const key = positionKey(event.position);
    for (const { projection, collection } of routes) {
      for (const id of projection.targets(event)) {
        const current = docs.peek(collection, id) ?? null;
        if (current && typeof current._pos === 'string' && current._pos >= key) continue;
        const next = projection.apply(current, event);
        // Unchanged (a message that does not touch its customer): nothing to write. Applying
        // the event again gives the same document, so its position need not be recorded.
        if (next === current) continue;
        if (next === null) docs.delete(collection, id);
        else docs.put(collection, { ...next, _pos: key }, current !== null);
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
   * event, then moves the checkpoints to the end of what it replayed (see below). A projector
   * running meanwhile re-applying events changes nothing twice, thanks to `_pos`.
   */
  async rebuild(
    onProgress?: (applied: number) => void,
    options: { complete?: boolean } = {},
  ): Promise<{ events: number; ms: number; /** Where it stopped (null: the log was empty). */ position: string | null }> {
    const started = Date.now();
    // Emptied for a bulk load: the indexes are built once at the end (see clearForLoad).
    const loads = [];
    for (const p of this.projections) loads.push(await this.store.collection(p.collection).clearForLoad());
    // The read models being rebuilt are kept in memory and written in bulk (one transaction on
    // SQLite), flushed whenever they hold REBUILD_FLUSH_AT documents: same documents, a
    // fraction of the round trips.
    const flushAt = this.options.rebuildFlushAt ?? REBUILD_FLUSH_AT;
    const docs = new WriteBehind(flushAt);
    // Only the events these read models handle are read (all of them, for the usual rebuild of
    // every read model, are most of the log). The end is the log's head as it was before the
    // read that found nothing more: every event up to it was read, handled or not.
    const types = [...this.routes.keys()];
    let after = START;
    let count = 0;
    for (;;) {
      const head = await this.events.head();
      const batch = await this.events.readAll(after, 1000, types);
      if (batch.length === 0) {
        if (comparePositions(head, after) > 0) after = head;
        break;
      }
      for (const event of batch) {
        const reading = this.applyOne(event as unknown as ProjectedEvent, docs);
        if (reading) await reading;
        if (docs.size >= flushAt) await docs.flush();
      }
      after = batch[batch.length - 1].position;
      count += batch.length;
      onProgress?.(count);
    }
    await docs.flush();
    for (const load of loads) await load.finish();
    // The live projectors resume where the rebuild ended instead of replaying the whole log
    // (harmless, documents carry `_pos`, but minutes on a long log): each rebuilt read model's
    // own checkpoint (the scale-out's pool), and the shared one when `complete` says every
    // projection was rebuilt (otherwise the others may still be behind it).
    const position = comparePositions(after, START) > 0 ? formatPosition(after) : null;
    if (position !== null) {
      for (const p of this.projections) await this.store.setCheckpoint(readModelCheckpoint(p.collection.name), position);
      if (options.complete) await this.store.setCheckpoint(this.checkpoint, position);
    }
    return { events: count, ms: Date.now() - started, position };
  }
}

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
