import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { InFlight } from '@support/lifecycle';
import { AppendResult, EventMetadata, EventStore, ExpectedRevision, NewEvent, RecordedEvent, Subscription, WrongExpectedRevisionError } from './port';
import { comparePositions, Position, START } from './position';

type Resolved = ResolvedEvent | AllStreamResolvedEvent;

/** System and link events belong to EventStoreDB, not to the domain. */
const isDomain = (r: Resolved): boolean => !!r.event && !r.event.type.startsWith('$') && !r.event.streamId.startsWith('$');

const toRecorded = (r: Resolved): RecordedEvent => {
  const e = r.event!;
  return {
    id: e.id,
    stream: e.streamId,
    revision: Number(e.revision),
    type: e.type,
    data: e.data,
    metadata: e.metadata as unknown as EventMetadata,
    position: e.position ? { commit: e.position.commit, prepare: e.position.prepare } : START,
  };
};

const toExpected = (expected: ExpectedRevision) => (expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : BigInt(expected));

/** EventStoreDB adapter: the production event store, behind the same port as the embedded one. */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  /** Appends and reads under way: close() lets them finish before it disposes of the client. */
  private readonly ops = new InFlight('event store');
  private closing: Promise<void> | null = null;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.ops.run(() => this.appendNow(stream, events, expected));
  }

  private async appendNow(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
        { expectedRevision: toExpected(expected) },
      );
      const position = result.position ?? START;
      return { revision: Number(result.nextExpectedRevision), position: { commit: position.commit, prepare: position.prepare } };
    } catch (err) {
      // The vendor's error becomes ours at the boundary, so nothing above knows the engine.
      if (err instanceof WrongExpectedVersionError) {
        const actual = typeof err.actualVersion === 'bigint' ? Number(err.actualVersion) : 'no_stream';
        throw new WrongExpectedRevisionError(stream, expected, actual);
      }
      throw err;
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

  readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.ops.run(() => this.readAllNow(after, limit));
  }

  private async readAllNow(after: Position, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    const from = comparePositions(after, START) === 0 ? ESDB_START : { commit: after.commit, prepare: after.prepare };
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
        last = { commit: p.commit, prepare: p.prepare };
        if (comparePositions(last, after) <= 0 || !isDomain(r)) continue;
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

  private async headNow(): Promise<Position> {
    for await (const r of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 200 })) {
      if (isDomain(r) && r.event?.position) return { commit: r.event.position.commit, prepare: r.event.position.prepare };
    }
    return START;
  }

  subscribe(after: Position, handler: (batch: RecordedEvent[]) => Promise<void>, onError: (err: unknown) => void): Subscription {
    const from = comparePositions(after, START) === 0 ? ESDB_START : { commit: after.commit, prepare: after.prepare };
    const subscription = this.client.subscribeToAll({ fromPosition: from, filter: excludeSystemEvents() });
    let closed = false;
    const loop = (async () => {
      for await (const r of subscription) {
        if (closed) break;
        if (isDomain(r)) await handler([toRecorded(r)]);
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
