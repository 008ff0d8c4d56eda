import { type EventStore, forwardingEvents, type NewEvent, type RecordedEvent } from './port';

/**
 * Turns a recorded event of `type` written at schema version `from` into version `from + 1`.
 * An event's version is `metadata.schema_version`; absent means 1, so events written before
 * a type had a second version need nothing stored. Upcasters are pure: the log is never
 * rewritten (docs/operating/upgrading.md).
 */
export interface Upcaster {
  type: string;
  from: number;
  up(data: Record<string, unknown>): Record<string, unknown>;
}

/** An event's schema version as recorded (1 when none is). */
export const schemaVersionOf = (event: { metadata: { schema_version?: unknown } }): number => {
  const v = event.metadata.schema_version;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
};

/** The event at the newest version its upcasters reach (the same object when none applies). */
export const upcast = (event: RecordedEvent, byKey: ReadonlyMap<string, Upcaster>): RecordedEvent => {
  let version = schemaVersionOf(event);
  let data = event.data as Record<string, unknown>;
  for (let u = byKey.get(`${event.type}@${version}`); u; u = byKey.get(`${event.type}@${version}`)) {
    data = u.up(data);
    version += 1;
  }
  if (data === event.data) return event;
  // Field by field: an adapter's recorded event may read its fields through getters (not copied by a spread).
  const metadata = { ...event.metadata, schema_version: version };
  return { id: event.id, type: event.type, stream: event.stream, revision: event.revision, position: event.position, data, metadata };
};

/**
 * The event store port with old event versions upcast on every read (streams, the log,
 * subscriptions), so deciders, projections and consumers see only the current shapes. An
 * append of a type with upcasters is stamped with its current version (one past its newest
 * upcaster), so it is never taken for an old one. Without upcasters, the store itself.
 */
export const upcastingEvents = (events: EventStore, upcasters: readonly Upcaster[]): EventStore => {
  if (upcasters.length === 0) return events;
  const byKey = new Map<string, Upcaster>();
  for (const u of upcasters) {
    const key = `${u.type}@${u.from}`;
    if (byKey.has(key)) throw new Error(`two upcasters for ${u.type} version ${u.from}`);
    byKey.set(key, u);
  }
  const currentOf = new Map<string, number>();
  for (const u of upcasters) currentOf.set(u.type, Math.max(currentOf.get(u.type) ?? 1, u.from + 1));
  const stamped = (batch: readonly NewEvent[]): NewEvent[] =>
    batch.map((e) => {
      const version = currentOf.get(e.type);
      return version === undefined ? e : { ...e, metadata: { ...e.metadata, schema_version: version } };
    });
  const all = (batch: RecordedEvent[]) => batch.map((e) => upcast(e, byKey));
  return {
    ...forwardingEvents(events),
    append: (stream, batch, expected) => events.append(stream, stamped(batch), expected),
    appendMany: (appends) => events.appendMany(appends.map((a) => ({ ...a, events: stamped(a.events) }))),
    readStream: async (stream, fromRevision) => all(await events.readStream(stream, fromRevision)),
    readAll: async (after, limit, types) => all(await events.readAll(after, limit, types)),
    subscribe: (after, handler, onError) => events.subscribe(after, (batch) => handler(all(batch)), onError),
  };
};
