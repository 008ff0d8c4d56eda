import { Position } from './position';

/** Metadata every domain event carries (design card). */
export interface EventMetadata {
  workspace_id: string | null;
  /** The API key id, or `system` / `admin` for operator and background writes. */
  actor: string;
  /** The API request's `Request-Id`; the admin CLI run's `admin_…` id; null for background work. */
  request_id: string | null;
  occurred_at: string;
  /** The version of the event's data; absent means 1 (upcasting.ts). */
  schema_version?: number;
  /** The W3C trace context of the command that appended it (present while tracing is on). */
  traceparent?: string;
}

export interface NewEvent {
  /** A UUID; EventStoreDB requires one, and it makes appends idempotent per event. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  stream: string;
  /** 0-based index of the event in its stream. */
  revision: number;
  position: Position;
}

/** `no_stream`: the stream must not exist; a number: its last event must have that revision. */
export type ExpectedRevision = 'any' | 'no_stream' | number;

export interface AppendResult {
  /** Revision of the last event written. */
  revision: number;
  /** Global position of the last event written: wait for projections to pass it. */
  position: Position;
}

/** One stream's part of `appendMany`. */
export interface StreamAppend {
  stream: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
}

export interface Subscription {
  /** Stops delivery; resolves once the handler in flight has finished. */
  close(): Promise<void>;
}

export interface EventStore {
  /** Appends atomically; throws WrongExpectedRevisionError when `expected` does not hold. */
  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams, each checked against its own expected revision, in order; the
   * results in the same order. All or none where the engine can (SQLite: one transaction). An
   * engine that cannot (EventStoreDB appends one stream at a time) stops at the first append
   * that fails: when appends before it were written, it throws PartialAppendError, naming
   * them, for the caller to undo; otherwise the failure itself, as `append` does.
   */
  appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** The stream in order from `fromRevision` (default 0: all of it); empty when it does not exist. */
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /**
   * Up to `limit` domain events strictly after `after` (START for the beginning), in log order;
   * with `types`, only events of those types (a rebuild reads only what its read models handle).
   */
  readAll(after: Position, limit: number, types?: readonly string[]): Promise<RecordedEvent[]>;
  /**
   * Delivers every domain event after `after`, in log order, in batches, then keeps
   * delivering new ones (from any process). A batch is not followed by the next one until
   * the handler's promise settles; a handler error stops the subscription and goes to `onError`.
   */
  subscribe(after: Position, handler: (batch: RecordedEvent[]) => Promise<void>, onError: (err: unknown) => void): Subscription;
  /** The position of the newest event, or START when the log is empty. */
  head(): Promise<Position>;
  /**
   * How many domain events of each type the log holds, when the engine can count them without
   * reading the events (a parallel rebuild balances its workers by it); null when it cannot.
   */
  countByType(): Promise<Record<string, number> | null>;
  close(): Promise<void>;
}

/**
 * Every method of `events`, passed through: the base of a wrapper that changes a few
 * (Application's metered and upcasting stores). Methods, not a prototype: an adapter's own
 * fields stay on the adapter.
 */
export const forwardingEvents = (events: EventStore): EventStore => ({
  append: (stream, batch, expected) => events.append(stream, batch, expected),
  appendMany: (appends) => events.appendMany(appends),
  readStream: (stream, fromRevision) => events.readStream(stream, fromRevision),
  readAll: (after, limit, types) => events.readAll(after, limit, types),
  subscribe: (after, handler, onError) => events.subscribe(after, handler, onError),
  head: () => events.head(),
  countByType: () => events.countByType(),
  close: () => events.close(),
});

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** `appendMany` on an engine without multi-stream transactions: `written` stayed, `failure` stopped the rest. */
export class PartialAppendError extends Error {
  constructor(
    readonly written: readonly AppendResult[],
    readonly failure: unknown,
  ) {
    super(`${written.length} of the appends were written before one failed: ${failure instanceof Error ? failure.message : String(failure)}`);
    this.name = 'PartialAppendError';
  }
}
