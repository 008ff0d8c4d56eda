import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { Decider, DomainEvent } from '@support/domain';
import { EventStore, Position, RecordedEvent, WrongExpectedRevisionError } from '@support/eventstore';
import { Clock, IdSource } from '../clock';
import { DomainFailure, failure } from '../errors';

/** Who is writing, for event metadata. */
export interface CommandContext {
  workspaceId: string | null;
  /** API key id, or `admin` / `system`. */
  actor: string;
  requestId: string | null;
}

export interface Aggregate<C, Ev extends DomainEvent, S> {
  decider: Decider<C, Ev, S>;
  /** Decodes stored events: the schema is checked on the way in and on the way out. */
  codec: t.Type<Ev, unknown, unknown>;
}

export interface Deps {
  events: EventStore;
  clock: Clock;
  ids: IdSource;
}

export interface Outcome<S, Ev> {
  state: S;
  events: readonly Ev[];
  /** Position of the last appended event; null when the command changed nothing. */
  position: Position | null;
}

const ATTEMPTS = 4;

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
/** Per event store (one per process, as another process has its own) and decider. */
const folded = new WeakMap<object, WeakMap<object, Map<string, { state: unknown; revision: number }>>>();

const cacheOf = (events: object, decider: object) => {
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

const remember = (cache: Map<string, { state: unknown; revision: number }>, stream: string, state: unknown, revision: number) => {
  cache.delete(stream);
  cache.set(stream, { state, revision });
  // Map order is insertion order: the first key is the least recently used.
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
};

/** Loads a stream and folds it, from the cached state when there is one. */
export const load = async <C, Ev extends DomainEvent, S>(deps: Pick<Deps, 'events'>, aggregate: Aggregate<C, Ev, S>, stream: string) => {
  const cache = cacheOf(deps.events, aggregate.decider);
  const hit = cache.get(stream) as { state: S; revision: number } | undefined;
  const recorded = await deps.events.readStream(stream, hit ? hit.revision + 1 : 0);
  const state = decodeAll(aggregate.codec, recorded).reduce(aggregate.decider.evolve, hit ? hit.state : aggregate.decider.initialState);
  const revision = recorded.length ? recorded[recorded.length - 1].revision : (hit?.revision ?? null);
  if (revision !== null) remember(cache, stream, state, revision);
  return { state, revision };
};

/**
 * Load, decide, append with the expected revision. A concurrent writer makes the append
 * fail; the command is then decided again on the new state, a few times, before a 409.
 * `command` may be a function of the state, for commands that depend on what is there.
 */
export const execute = <C, Ev extends DomainEvent, S>(
  deps: Deps,
  ctx: CommandContext,
  aggregate: Aggregate<C, Ev, S>,
  stream: string,
  command: C | ((state: S) => C),
  /** How many times a conflict is decided again before a 409. */
  attempts = ATTEMPTS,
): Promise<Outcome<S, Ev>> => executeAll(deps, ctx, aggregate, stream, [command], attempts);

/**
 * Several commands decided in turn, each on the state the previous ones leave, and appended
 * together: one append, so all of them happen or none (e.g. a conversation started by an
 * agent turn, with the turn's messages).
 */
export const executeAll = <C, Ev extends DomainEvent, S>(
  deps: Deps,
  ctx: CommandContext,
  aggregate: Aggregate<C, Ev, S>,
  stream: string,
  commands: readonly (C | ((state: S) => C))[],
  attempts = ATTEMPTS,
): Promise<Outcome<S, Ev>> => oneAtATime(deps.events, stream, () => decideAndAppend(deps, ctx, aggregate, stream, commands, attempts));

/**
 * Commands on one stream run one after another in a process: appends are group-committed a
 * turn later, so two decided on the same state would conflict, and under load a hot stream
 * (a busy conversation) would spend its retries on its own process. Conflicts then only come
 * from other processes.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();
const oneAtATime = <T>(owner: object, key: string, run: () => Promise<T>): Promise<T> => {
  let tails = queues.get(owner);
  if (!tails) queues.set(owner, (tails = new Map<string, Promise<void>>()));
  const result = (tails.get(key) ?? Promise.resolve()).then(run);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
};

const decideAndAppend = async <C, Ev extends DomainEvent, S>(
  deps: Deps,
  ctx: CommandContext,
  aggregate: Aggregate<C, Ev, S>,
  stream: string,
  commands: readonly (C | ((state: S) => C))[],
  attempts: number,
): Promise<Outcome<S, Ev>> => {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = await load(deps, aggregate, stream);
    const events: Ev[] = [];
    let next = state;
    for (const command of commands) {
      const decided = aggregate.decider.decide(typeof command === 'function' ? (command as (s: S) => C)(next) : command, next);
      if (E.isLeft(decided)) throw new DomainFailure(decided.left);
      events.push(...decided.right);
      next = decided.right.reduce(aggregate.decider.evolve, next);
    }
    if (events.length === 0) return { state, events, position: null };
    const occurred_at = deps.clock.now().toISOString();
    try {
      const result = await deps.events.append(
        stream,
        events.map((e) => ({
          id: deps.ids.eventId(),
          type: e.type,
          data: e.data,
          metadata: { workspace_id: ctx.workspaceId, actor: ctx.actor, request_id: ctx.requestId, occurred_at },
        })),
        revision === null ? 'no_stream' : revision,
      );
      remember(cacheOf(deps.events, aggregate.decider), stream, next, result.revision);
      return { state: next, events, position: result.position };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevisionError) || attempt >= attempts) {
        if (err instanceof WrongExpectedRevisionError) throw failure('conflict', 'the resource was changed by another request at the same time; retry');
        throw err;
      }
    }
  }
};
