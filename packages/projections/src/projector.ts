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
import { CheckpointWriter, Collection, CollectionWrites, Doc, ReadStore } from '@support/readstore';
import { FailureStreak, isolateBatch, SET_ASIDE_AFTER } from './isolate';
import { AnyProjection, LoggedEvent, ProjectedEvent } from './projection';
import type { Logger } from '@support/kernel';
import { batchSpans } from './batch-spans';
import { CHECKPOINT, ProjectionWatch, ProjectorOptions, readModelCheckpoint } from './projector-options';
import { SetAsideLog, setAsideId } from './set-aside';
import { REBUILD_FLUSH_AT, WriteBehind } from './write-behind';

/** Health reads the set-aside records again at most this often (an operator skips them from another process). */
const SET_ASIDE_REFRESH_MS = 1000;

type Route = { projection: AnyProjection; collection: Collection<Doc> };

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
  private readonly setAside: SetAsideLog;
  private readonly streak: FailureStreak;
  /** `<read model>:<position>` of the events set aside (or skipped) for these read models: never applied again here. */
  private readonly skipped = new Set<string>();
  /** Records still set aside (not yet skipped) for these read models, as last read. */
  private open = 0;
  private refreshedAt = 0;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly projections: readonly AnyProjection[],
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
    this.setAside = new SetAsideLog(store);
    this.streak = new FailureStreak(options.setAsideAfter ?? SET_ASIDE_AFTER);
  }

  private get readModels(): string[] {
    return this.projections.map((p) => p.collection.name);
  }

  /** Learns the events set aside for these read models (and how many still wait for an operator). */
  private async loadSetAside(): Promise<void> {
    const records = await this.setAside.list(this.readModels);
    for (const r of records) this.skipped.add(r.id);
    this.open = records.filter((r) => r.status === 'set_aside').length;
    this.refreshedAt = Date.now();
  }

  get checkpoint(): string {
    return this.options.checkpoint ?? CHECKPOINT;
  }

  async start(): Promise<void> {
    const fallback = this.options.fallbackCheckpoint;
    const saved = (await this.store.getCheckpoint(this.checkpoint)) ?? (fallback ? await this.store.getCheckpoint(fallback) : null);
    this.position = saved ? parsePosition(saved) : START;
    await this.loadSetAside();
    this.log.info('projector starting', { checkpoint: this.checkpoint, from: formatPosition(this.position) });
    // A read-store error does not stop the projector: it retries the batch with backoff
    // (documents carry `_pos`, so what the failed attempt wrote is not applied twice).
    this.subscription = new RetryingSubscription(
      this.events,
      this.checkpoint,
      this.position,
      (batch) => this.applyOrSetAside(batch),
      this.log,
      this.options.backoff,
    );
    this.subscription.start();
  }

  /** Running or retrying, and why, and how many events are set aside (GET /healthz). */
  health(): ConsumerHealth | null {
    const health = this.subscription?.health();
    if (!health) return null;
    if (Date.now() - this.refreshedAt >= SET_ASIDE_REFRESH_MS) {
      this.refreshedAt = Date.now();
      this.loadSetAside().catch(() => undefined);
    }
    return { ...health, set_aside: this.open };
  }

  /**
   * The subscription's handler: a batch that fails the same way `setAsideAfter` times in a row
   * is applied event by event, setting aside what cannot be applied (isolateBatch throws,
   * leaving the batch to be retried, when the store itself is down).
   */
  private async applyOrSetAside(batch: readonly RecordedEvent[]): Promise<void> {
    try {
      await this.applyBatch(batch);
    } catch (err) {
      if (!this.streak.failed(err)) throw err;
      const found = await isolateBatch(batch, this, this.setAside, this.log, this.checkpoint, this.options.setAsideAfter ?? SET_ASIDE_AFTER);
      for (const r of found) this.skipped.add(r.id);
      this.open += found.length;
      await this.commit([], batch[batch.length - 1].position);
    }
    this.streak.reset();
  }

  /** Isolation: the read models of these that apply `event` and have not set it aside. */
  readModelsOf(event: RecordedEvent): string[] {
    const at = formatPosition(event.position);
    return (this.routes.get(event.type) ?? []).map((r) => r.collection.name).filter((name) => !this.skipped.has(setAsideId(name, at)));
  }

  /** Applies `event` to one read model alone, written at once (isolation, and an operator's retry). */
  async applyAlone(event: RecordedEvent, readModel: string): Promise<void> {
    const e: ProjectedEvent<LoggedEvent> = event;
    const routes = (this.routes.get(e.type) ?? []).filter((r) => r.collection.name === readModel);
    const docs = new WriteBehind();
    for (const { projection, collection } of routes) for (const id of projection.targets(e)) await docs.load(collection, id);
    this.applyKnown(e, routes, docs);
    await this.store.writeBatch(docs.take());
  }

  /** Isolation: a write the store accepts whenever it is up (the checkpoint, where it already is). */
  async probe(): Promise<void> {
    await this.store.writeBatch([], { name: this.checkpoint, value: formatPosition(this.position) });
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
    const spans = batchSpans(batch, this.checkpoint);
    try {
      for (const event of batch) {
        const reading = this.applyOne(event, docs);
        if (reading) await reading;
      }
      await this.commit(docs.take(), batch[batch.length - 1].position);
      spans.end();
    } catch (err) {
      spans.end(err);
      throw err;
    }
  }

  private async commit(writes: CollectionWrites[], last: Position): Promise<void> {
    const saveNow = this.options.saveEveryMs === undefined;
    await this.store.writeBatch(writes, saveNow ? { name: this.checkpoint, value: formatPosition(last) } : undefined);
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
  private applyOne(event: ProjectedEvent<LoggedEvent>, docs: WriteBehind): Promise<void> | undefined {
    const routes = this.routesOf(event);
    if (routes === undefined) return undefined;
    let reads: Promise<void>[] | undefined;
    for (const { projection, collection } of routes)
      for (const id of projection.targets(event)) if (docs.peek(collection, id) === undefined) (reads ??= []).push(docs.load(collection, id));
    if (reads) return Promise.all(reads).then(() => this.applyKnown(event, routes, docs));
    this.applyKnown(event, routes, docs);
    return undefined;
  }

  /** The routes of the event, but those that set it aside. */
  private routesOf(event: ProjectedEvent<LoggedEvent>): Route[] | undefined {
    const routes = this.routes.get(event.type);
    if (routes === undefined || this.skipped.size === 0) return routes;
    const at = formatPosition(event.position);
    return routes.filter((r) => !this.skipped.has(setAsideId(r.collection.name, at)));
  }

  private applyKnown(event: ProjectedEvent<LoggedEvent>, routes: readonly Route[], docs: WriteBehind): void {
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
    // Events set aside stay out of the rebuilt read models too.
    await this.loadSetAside();
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
        const reading = this.applyOne(event, docs);
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
