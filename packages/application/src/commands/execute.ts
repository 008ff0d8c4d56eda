import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { Decider, DomainEvent } from '@support/domain';
import { EventStore, Position, WrongExpectedRevisionError } from '@support/eventstore';
import { Clock, IdSource } from '../clock';
import { DomainFailure, failure } from '../errors';
import { cacheOf, load, remember, withKeys } from './stream-cache';
import { decideAll, metadataOf, traced } from './decided';

export { load, priorWrite } from './stream-cache';

/** Who is writing, for event metadata. */
export interface CommandContext {
  workspaceId: string | null;
  /** API key id, or `admin` / `system`. */
  actor: string;
  requestId: string | null;
  /**
   * A hash of the request's Idempotency-Key: recorded in each event's metadata, so the stream
   * itself says the request was performed (one decision, made by the append), and a retry that
   * finds it there performs nothing.
   */
  idempotencyKey?: string;
  /** The request's own ids (keyedIds under an Idempotency-Key: the same on every retry). */
  ids?: Pick<IdSource, 'next'>;
  /** The W3C trace context the command's events carry (set by `traced`; absent when tracing is off). */
  traceparent?: string;
}

/**
 * The context for a request's secondary commands (a claim or its release, a charge or its
 * refund, a lead's capture): only the command that makes the request's resource carries the
 * key, since a second command of the same request on a stream that already has the key would
 * be taken for a retry and skipped.
 */
export const withoutIdempotency = <Ctx extends CommandContext>({ idempotencyKey: _key, ...ctx }: Ctx): Omit<Ctx, 'idempotencyKey'> => ctx;

/** The ids a command of this request takes. */
export const idsOf = (deps: Pick<Deps, 'ids'>, ctx: CommandContext): Pick<IdSource, 'next'> => ctx.ids ?? deps.ids;

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
  /** The request's Idempotency-Key was already in the stream: nothing was decided; `position` is the earlier append's. */
  replayed?: boolean;
}

const ATTEMPTS = 4;

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
): Promise<Outcome<S, Ev>> =>
  new Promise((resolve, reject) => {
    const span = traced(ctx, stream);
    // The queue holds the commands of any aggregate: typed again by this promise.
    enqueue(deps, stream, {
      ctx: span.ctx,
      aggregate: aggregate as unknown as Aggregate<unknown, DomainEvent, unknown>,
      commands,
      attempts,
      resolve: (outcome) => {
        span.end();
        resolve(outcome as Outcome<S, Ev>);
      },
      reject: (err) => {
        span.end(err);
        // The queue's own rejection, passed on as it came (a DomainFailure, an engine's error).
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(err);
      },
    });
  });

interface Job {
  ctx: CommandContext;
  aggregate: Aggregate<unknown, DomainEvent, unknown>;
  commands: readonly unknown[];
  attempts: number;
  resolve(outcome: Outcome<unknown, DomainEvent>): void;
  reject(err: unknown): void;
}

/**
 * Commands on one stream take turns in a process, and those that queued up meanwhile go
 * together: decided one after another on the state the previous ones leave, appended in one
 * append (one transaction). Appends are group-committed a turn later, so two commands decided
 * on the same state would conflict, and a hot stream (a busy conversation) would spend its
 * retries on its own process; in turns, conflicts only come from other processes, and a burst
 * on one conversation costs a transaction per turn instead of one per request.
 */
const queues = new WeakMap<object, Map<string, Job[]>>();

const enqueue = (deps: Deps, stream: string, job: Job) => {
  let byStream = queues.get(deps.events);
  if (!byStream) queues.set(deps.events, (byStream = new Map<string, Job[]>()));
  const waiting = byStream.get(stream);
  if (waiting) {
    waiting.push(job);
    return;
  }
  const queue: Job[] = [job];
  byStream.set(stream, queue);
  void (async () => {
    // Jobs arriving while a turn runs join the queue and go in the next turn.
    while (queue.length > 0) {
      // One aggregate per turn (a stream has one; this only guards against a mix-up).
      const take = queue.findIndex((j) => j.aggregate !== queue[0].aggregate);
      const turn = queue.splice(0, take === -1 ? queue.length : take);
      try {
        await runTurn(deps, stream, turn);
      } catch (err) {
        // Whatever went wrong unexpectedly (a command function that threw) fails the turn's
        // jobs still unsettled, never the queue: the stream's next commands still run.
        for (const job of turn) job.reject(err);
      }
    }
    byStream.delete(stream);
  })();
};

const runTurn = async (deps: Deps, stream: string, jobs: Job[]): Promise<void> => {
  let pending = jobs;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const aggregate = pending[0].aggregate;
    let loaded: { state: unknown; revision: number | null; keys: ReadonlyMap<string, Position> };
    try {
      loaded = await load(deps, aggregate, stream);
    } catch (err) {
      for (const job of pending) job.reject(err);
      return;
    }
    // Each job decided on the state the previous ones left; a job that fails its rules fails
    // alone and adds nothing.
    const decided: { job: Job; before: unknown; after: unknown; events: DomainEvent[] }[] = [];
    let next = loaded.state;
    // The same request twice in one turn (a retry racing its original): the second waits for the first's append.
    const followers: Job[] = [];
    const keysInTurn = new Set<string>();
    for (const job of pending) {
      const key = job.ctx.idempotencyKey;
      const prior = key ? loaded.keys.get(key) : undefined;
      if (prior) {
        job.resolve({ state: next, events: [], position: prior, replayed: true });
        continue;
      }
      if (key && keysInTurn.has(key)) {
        followers.push(job);
        continue;
      }
      const result = decideAll(aggregate, job.commands, next);
      if (E.isLeft(result)) {
        job.reject(new DomainFailure(result.left));
        continue;
      }
      decided.push({ job, before: next, after: result.right.state, events: result.right.events });
      if (key && result.right.events.length > 0) keysInTurn.add(key);
      next = result.right.state;
    }
    const writing = decided.filter((d) => d.events.length > 0);
    for (const d of decided) if (d.events.length === 0) d.job.resolve({ state: d.before, events: [], position: null });
    if (writing.length === 0) {
      pending = followers;
      continue;
    }
    const occurred_at = deps.clock.now().toISOString();
    try {
      const result = await deps.events.append(
        stream,
        writing.flatMap(({ job, events }) =>
          events.map((e) => ({
            id: deps.ids.eventId(),
            type: e.type,
            data: e.data,
            metadata: metadataOf(job.ctx, occurred_at),
          })),
        ),
        loaded.revision === null ? 'no_stream' : loaded.revision,
      );
      const added = writing.flatMap(({ job }) => (job.ctx.idempotencyKey ? [{ key: job.ctx.idempotencyKey, position: result.position }] : []));
      remember(cacheOf(deps.events, aggregate.decider), stream, { state: next, revision: result.revision, keys: withKeys(loaded.keys, added) });
      // All committed together: each waits for the position of the turn's last event.
      for (const d of writing) d.job.resolve({ state: d.after, events: d.events, position: result.position });
      for (const job of followers) job.resolve({ state: next, events: [], position: result.position, replayed: true });
      return;
    } catch (err) {
      // Another process appended first: the jobs are decided again on the new state, each
      // until its own attempts run out (then 409).
      const retry: Job[] = [];
      for (const { job } of writing) {
        if (!(err instanceof WrongExpectedRevisionError)) job.reject(err);
        else if (attempt >= job.attempts) job.reject(failure('conflict', 'the resource was changed by another request at the same time; retry'));
        else retry.push(job);
      }
      pending = [...retry, ...followers];
    }
  }
};
