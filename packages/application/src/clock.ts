import { randomBytes, randomUUID } from 'node:crypto';
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

/**
 * Cryptographic randomness drawn from a pooled buffer: ULID asks for one number per character,
 * and a system call for each was a visible share of a write's cost.
 */
const pooledRandom = (): (() => number) => {
  let pool = randomBytes(4096);
  let offset = 0;
  return () => {
    if (offset + 2 > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    const value = pool.readUInt16BE(offset) / 65536;
    offset += 2;
    return value;
  };
};

export const ulidIds = (clock: Clock = systemClock): IdSource => {
  const ulid = monotonicFactory(pooledRandom());
  return {
    next: (prefix) => prefix + ulid(clock.now().getTime()),
    eventId: () => randomUUID(),
  };
};
