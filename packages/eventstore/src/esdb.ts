import { BACKWARDS, EventStoreDBClient, FORWARDS, jsonEvent, START as ESDB_START, StreamNotFoundError } from '@eventstore/db-client';
import { InFlight } from '@support/kernel';
import {
  batched,
  fromPosition,
  isDomain,
  newestDomainPosition,
  toExpected,
  toPortError,
  toPosition,
  toRecorded,
  typeFilter,
  unavailableIfUnreached,
} from './esdb-mapping';
import { AppendResult, EventStore, ExpectedRevision, NewEvent, PartialAppendError, RecordedEvent, StreamAppend, Subscription } from './port';
import { comparePositions, Position, START } from './position';

/** Events handed to a subscriber at once, at most (what arrived while it handled the last batch). */
const BATCH = 500;
/** Records read per page when scanning `$all` backwards for the newest domain event. */
const HEAD_PAGE = 500;

export interface EsdbOptions {
  /** The event types a `$all` subscription asks the server for (default: everything but system events). */
  eventTypes?: readonly string[];
}

/** EventStoreDB adapter: the production event store, behind the same port as the embedded one. */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  /** Appends and reads under way: close() lets them finish before it disposes of the client. */
  private readonly ops = new InFlight('event store', unavailableIfUnreached);
  private closing: Promise<void> | null = null;

  constructor(
    connectionString: string,
    private readonly options: EsdbOptions = {},
  ) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.ops.run(() => this.appendNow(stream, events, expected));
  }

  /** One stream after another (the client has no multi-stream transaction): see the port. */
  appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((a) => a.events.length === 0)) return Promise.reject(new Error('appendMany needs appends of at least one event'));
    return this.ops.run(async () => {
      const written: AppendResult[] = [];
      for (const a of appends) {
        try {
          written.push(await this.appendNow(a.stream, a.events, a.expected));
        } catch (err) {
          throw written.length === 0 ? err : new PartialAppendError(written, err);
        }
      }
      return written;
    });
  }

  private async appendNow(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
        { expectedRevision: toExpected(expected) },
      );
      return { revision: Number(result.nextExpectedRevision), position: result.position ? toPosition(result.position) : START };
    } catch (err) {
      throw toPortError(err, stream, expected);
    }
  }

  readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.ops.run(() => this.readStreamNow(stream, fromRevision));
  }

  private async readStreamNow(stream: string, fromRevision: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      const from = fromRevision === 0 ? ESDB_START : BigInt(fromRevision);
      for await (const r of this.client.readStream(stream, { direction: FORWARDS, fromRevision: from })) out.push(toRecorded(r));
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
    return out;
  }

  readAll(after: Position, limit: number, types?: readonly string[]): Promise<RecordedEvent[]> {
    return this.ops.run(() => this.readAllNow(after, limit, types && new Set(types)));
  }

  // `types` are matched here, as the read goes, rather than by a server-side filter: the paging
  // below counts what the server returns, and stays the same either way.
  private async readAllNow(after: Position, limit: number, types?: ReadonlySet<string>): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    const from = fromPosition(after);
    // Reading $all from a position includes that position, and system events count towards
    // maxCount: read in pages until enough domain events are collected.
    let cursor: typeof from = from;
    for (;;) {
      let seen = 0;
      let last: Position | null = null;
      for await (const r of this.client.readAll({ fromPosition: cursor, direction: FORWARDS, maxCount: limit + 1 })) {
        seen += 1;
        const p = r.event?.position;
        if (!p) continue;
        last = toPosition(p);
        if (comparePositions(last, after) <= 0 || !isDomain(r) || (types && !types.has(r.event!.type))) continue;
        if (out.length < limit) out.push(toRecorded(r));
      }
      if (out.length >= limit || seen < limit + 1 || last === null) return out;
      cursor = { commit: last.commit, prepare: last.prepare };
      after = last;
    }
  }

  head(): Promise<Position> {
    return this.ops.run(() => this.headNow());
  }

  /** The newest domain event's position (scanning back past system events; see newestDomainPosition). */
  private headNow(): Promise<Position> {
    return newestDomainPosition((from, count) => this.client.readAll({ fromPosition: from, direction: BACKWARDS, maxCount: count }), HEAD_PAGE);
  }

  /** EventStoreDB keeps no count per type that a client can read without reading the events. */
  async countByType(): Promise<null> {
    return null;
  }

  /**
   * A catch-up subscription to `$all`, filtered on the server to our event types, handing the
   * handler whatever arrived while it handled the previous batch (up to 500 at once).
   */
  subscribe(after: Position, handler: (batch: RecordedEvent[]) => Promise<void>, onError: (err: unknown) => void): Subscription {
    const subscription = this.client.subscribeToAll({ fromPosition: fromPosition(after), filter: typeFilter(this.options.eventTypes) });
    let closed = false;
    const loop = (async () => {
      for await (const batch of batched(subscription, BATCH)) {
        if (closed) break;
        // Reading from a position includes it: the event at `after` was handled already.
        const events = batch.filter((r) => isDomain(r) && r.event?.position && comparePositions(toPosition(r.event.position), after) > 0).map(toRecorded);
        if (events.length > 0) await handler(events);
      }
    })().catch((err) => {
      if (!closed) onError(err);
    });
    return {
      close: async () => {
        closed = true;
        await subscription.unsubscribe();
        await loop;
      },
    };
  }

  /** Lets the appends and reads under way finish, then disposes of the client (subscriptions are closed by their owners). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.ops.drain();
      await this.client.dispose();
    })();
    return this.closing;
  }
}
