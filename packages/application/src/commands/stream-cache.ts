import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { DomainEvent } from '@support/domain';
import type { Position, RecordedEvent } from '@support/eventstore';
import type { Aggregate, CommandContext, Deps } from './execute';

const decodeAll = <Ev>(codec: t.Type<Ev, unknown, unknown>, recorded: RecordedEvent[]): Ev[] =>
  recorded.map((r) => {
    const decoded = codec.decode({ type: r.type, data: r.data });
    if (E.isLeft(decoded)) throw new Error(`stream ${r.stream} revision ${r.revision}: stored event ${r.type} does not match its schema`);
    return decoded.right;
  });

/**
 * Folded states by decider and stream, so a long stream (a busy conversation) is not read and
 * folded from the start on every command: only events after the cached revision are read.
 * Safe across processes, since whatever another process appended is still read; states are
 * immutable, so sharing them is safe too.
 */
const CACHE_LIMIT = 10_000;
/** Idempotency keys remembered per stream (the newest): a retry comes within hours, not thousands of writes later. */
const KEYS_PER_STREAM = 256;
interface Folded {
  state: unknown;
  revision: number;
  /** Idempotency keys found in the stream's metadata, each with the position of its request's last event. */
  keys: ReadonlyMap<string, Position>;
}
/** Per event store (one per process, as another process has its own) and decider. */
const folded = new WeakMap<object, WeakMap<object, Map<string, Folded>>>();

export const cacheOf = (events: object, decider: object) => {
  let byDecider = folded.get(events);
  if (!byDecider) {
    byDecider = new WeakMap();
    folded.set(events, byDecider);
  }
  let cache = byDecider.get(decider);
  if (!cache) {
    cache = new Map();
    byDecider.set(decider, cache);
  }
  return cache;
};

export const withKeys = (keys: ReadonlyMap<string, Position>, added: readonly { key: string; position: Position }[]): ReadonlyMap<string, Position> => {
  if (added.length === 0) return keys;
  const next = new Map(keys);
  for (const { key, position } of added) {
    next.delete(key);
    next.set(key, position);
  }
  while (next.size > KEYS_PER_STREAM) next.delete(next.keys().next().value!);
  return next;
};

const keysIn = (recorded: readonly RecordedEvent[]) =>
  recorded.flatMap((r) => {
    const key = (r.metadata as { idempotency_key?: unknown } | null)?.idempotency_key;
    return typeof key === 'string' ? [{ key, position: r.position }] : [];
  });

export const remember = (cache: Map<string, Folded>, stream: string, entry: Folded) => {
  cache.delete(stream);
  cache.set(stream, entry);
  // Map order is insertion order: the first key is the least recently used.
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
};

/** Loads a stream and folds it, from the cached state when there is one. */
export const load = async <C, Ev extends DomainEvent, S>(deps: Pick<Deps, 'events'>, aggregate: Aggregate<C, Ev, S>, stream: string) => {
  const cache = cacheOf(deps.events, aggregate.decider);
  const hit = cache.get(stream);
  const recorded = await deps.events.readStream(stream, hit ? hit.revision + 1 : 0);
  const state = decodeAll(aggregate.codec, recorded).reduce(aggregate.decider.evolve, hit ? (hit.state as S) : aggregate.decider.initialState);
  const revision = recorded.length ? recorded[recorded.length - 1].revision : (hit?.revision ?? null);
  const keys = withKeys(hit?.keys ?? new Map<string, Position>(), keysIn(recorded));
  if (revision !== null) remember(cache, stream, { state, revision, keys });
  return { state, revision, keys };
};

/**
 * Where this request's Idempotency-Key was already appended to `stream` (its last event's
 * position), or null: for a command that must know before it does anything outside the
 * stream (a claim, a charge).
 */
export const priorWrite = async <C, Ev extends DomainEvent, S>(
  deps: Pick<Deps, 'events'>,
  aggregate: Aggregate<C, Ev, S>,
  stream: string,
  ctx: CommandContext,
): Promise<Position | null> => (ctx.idempotencyKey ? ((await load(deps, aggregate, stream)).keys.get(ctx.idempotencyKey) ?? null) : null);
