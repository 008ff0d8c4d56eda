import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Time and randomness are injected so retries, expiry and backoff are testable without sleeping. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface IdSource {
  /** A resource id: prefix + ULID (time-sortable, monotonic within a process). */
  next(prefix: string): string;
  /** An event id (UUID, as EventStoreDB requires). */
  eventId(): string;
}

export const ulidIds = (clock: Clock = systemClock): IdSource => {
  const ulid = monotonicFactory();
  return {
    next: (prefix) => prefix + ulid(clock.now().getTime()),
    eventId: () => randomUUID(),
  };
};
