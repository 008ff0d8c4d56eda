import {
  ANY,
  DeadlineExceededError,
  eventTypeFilter,
  excludeSystemEvents,
  NO_STREAM,
  NotLeaderError,
  START as ESDB_START,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type Filter,
  type Position as EsdbPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { EngineUnavailable } from '@support/kernel';
import { EventMetadata, ExpectedRevision, RecordedEvent, WrongExpectedRevisionError } from './port';
import { comparePositions, Position, START } from './position';

type ReadFrom = 'end' | EsdbPosition;

/** The pure translations between EventStoreDB's client types and the port's: unit-tested without a server. */

export type Resolved = ResolvedEvent | AllStreamResolvedEvent;

/** System and link events belong to EventStoreDB, not to the domain. */
export const isDomain = (r: Resolved): boolean => !!r.event && !r.event.type.startsWith('$') && !r.event.streamId.startsWith('$');

export const toPosition = (p: EsdbPosition): Position => ({ commit: p.commit, prepare: p.prepare });

/** Where a read of `$all` after `after` starts: the log's start, or that position (which the read includes). */
export const fromPosition = (after: Position): typeof ESDB_START | EsdbPosition =>
  comparePositions(after, START) === 0 ? ESDB_START : { commit: after.commit, prepare: after.prepare };

export const toRecorded = (r: Resolved): RecordedEvent => {
  const e = r.event!;
  return {
    id: e.id,
    stream: e.streamId,
    revision: Number(e.revision),
    type: e.type,
    data: e.data,
    metadata: e.metadata as unknown as EventMetadata,
    position: e.position ? toPosition(e.position) : START,
  };
};

export const toExpected = (expected: ExpectedRevision): typeof ANY | typeof NO_STREAM | bigint =>
  expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : BigInt(expected);

/** The vendor's concurrency error as the port's, so nothing above the port knows the engine; other errors unchanged. */
export const toPortError = (err: unknown, stream: string, expected: ExpectedRevision): unknown => {
  if (!(err instanceof WrongExpectedVersionError)) return err;
  const actual = typeof err.actualVersion === 'bigint' ? Number(err.actualVersion) : 'no_stream';
  return new WrongExpectedRevisionError(stream, expected, actual);
};

/** gRPC's UNAVAILABLE and DEADLINE_EXCEEDED: the client passes some on as plain gRPC errors (an append to a server it never reached). */
const GRPC_UNREACHED = new Set([14, 4]);

/**
 * No server to talk to, it did not answer in time, or it is no longer the cluster's leader: a
 * passing condition (the caller may answer 503 and retry), as the MongoDB adapter's lost
 * connection. An append that fails so may still have been written: the same request with its
 * Idempotency-Key answers what was saved.
 */
export const unavailableIfUnreached = (err: unknown): unknown => {
  const code = (err as { code?: unknown } | null)?.code;
  const unreached =
    err instanceof UnavailableError ||
    err instanceof DeadlineExceededError ||
    err instanceof TimeoutError ||
    err instanceof NotLeaderError ||
    (err instanceof Error && typeof code === 'number' && GRPC_UNREACHED.has(code) && 'metadata' in err);
  return unreached ? new EngineUnavailable('event store', err) : err;
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server-side filter of a `$all` subscription: exactly the given event types, or everything but system events. */
export const typeFilter = (eventTypes?: readonly string[]): Filter =>
  eventTypes && eventTypes.length > 0 ? eventTypeFilter({ regex: `^(?:${eventTypes.map(escapeRegex).join('|')})$` }) : excludeSystemEvents();

/**
 * Groups what `source` yields into batches: whatever arrived while the consumer handled the
 * previous batch comes as the next one (at most `max`, in order). The source is read ahead by
 * at most `4 × max` items, then waits for the consumer. A source error is thrown after the items
 * that came before it.
 */
export async function* batched<T>(source: AsyncIterable<T>, max: number): AsyncGenerator<T[]> {
  const queue: T[] = [];
  let done = false;
  let failure: { error: unknown } | null = null;
  // Held in an object: the callbacks are set inside closures, out of the compiler's sight.
  const wake: { consumer: (() => void) | null; reader: (() => void) | null } = { consumer: null, reader: null };
  let stopped = false;
  const reader = (async () => {
    try {
      for await (const item of source) {
        queue.push(item);
        wake.consumer?.();
        while (queue.length >= 4 * max && !stopped) await new Promise<void>((resolve) => (wake.reader = resolve));
        if (stopped) break;
      }
    } catch (error) {
      failure = { error };
    } finally {
      done = true;
      wake.consumer?.();
    }
  })();
  try {
    for (;;) {
      if (queue.length > 0) {
        const batch = queue.splice(0, max);
        wake.reader?.();
        yield batch;
        continue;
      }
      if (failure) throw (failure as { error: unknown }).error;
      if (done) return;
      await new Promise<void>((resolve) => (wake.consumer = resolve));
      wake.consumer = null;
    }
  } finally {
    stopped = true;
    wake.reader?.();
    await reader;
  }
}

/**
 * The newest domain event's position, given a backwards reader of `$all` (`page(from, n)`:
 * up to n records from `from` down): page by page past any number of system events
 * (statistics, projections), until one is found or the log's start is reached.
 */
export const newestDomainPosition = async (page: (from: ReadFrom, count: number) => AsyncIterable<Resolved>, pageSize = 500): Promise<Position> => {
  let from: ReadFrom = 'end';
  for (;;) {
    let seen = 0;
    let oldest: Position | null = null;
    for await (const r of page(from, pageSize)) {
      seen += 1;
      if (isDomain(r) && r.event?.position) return toPosition(r.event.position);
      if (r.event?.position) oldest = toPosition(r.event.position);
    }
    // A short page is the log's start; a page that did not move (a read that includes its start) too.
    if (seen < pageSize || oldest === null || (from !== 'end' && comparePositions(oldest, from) >= 0)) return START;
    from = oldest;
  }
};
