import { createHash, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Time and randomness are injected so retries, expiry and backoff are testable without sleeping. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface IdSource {
  /** A resource id: prefix + ULID (time-sortable, monotonic within a process). */
  next(prefix: string): string;
  /** An event id: a UUID (EventStoreDB requires one), version 7, so it sorts by time. */
  eventId(): string;
}

/**
 * Cryptographic randomness drawn from a pooled buffer: ULID asks for one number per character,
 * and a system call for each was a visible share of a write's cost.
 */
const pooledBytes = (): ((n: number) => Buffer) => {
  let pool = randomBytes(4096);
  let offset = 0;
  return (n) => {
    if (offset + n > pool.length) {
      pool = randomBytes(4096);
      offset = 0;
    }
    offset += n;
    return pool.subarray(offset - n, offset);
  };
};

/**
 * RFC 9562 version 7: the Unix time in ms in the first 48 bits, then the version, 74 random
 * bits and the variant. Unlike a random (version 4) id, consecutive ids share a prefix, so the
 * event store's unique index on ids takes each append at its end: one page per commit instead
 * of one random page per event (docs/performance.md: an append 35 → 17 µs of SQLite time).
 */
export const uuidV7 = (ms: number, random: Uint8Array): string => {
  const b = Buffer.alloc(16);
  b.writeUIntBE(ms, 0, 6);
  b.set(random.subarray(0, 10), 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export const ulidIds = (clock: Clock = systemClock): IdSource => {
  const bytes = pooledBytes();
  const ulid = monotonicFactory(() => bytes(2).readUInt16BE(0) / 65536);
  return {
    next: (prefix) => prefix + ulid(clock.now().getTime()),
    eventId: () => uuidV7(clock.now().getTime(), bytes(10)),
  };
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID's 10 time characters for `ms`. */
const ulidTime = (ms: number): string => {
  let out = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) out = CROCKFORD[t % 32] + out;
  return out;
};

/**
 * The ids of one request made under an Idempotency-Key: the same ids in the same order on
 * every retry (time from the key's first arrival, randomness from a hash of the key), so a
 * retried create targets the same stream and its append finds the key already there.
 */
export const keyedIds = (key: string, firstSeenMs: number): Pick<IdSource, 'next'> => {
  const counts = new Map<string, number>();
  const time = ulidTime(firstSeenMs);
  return {
    next: (prefix) => {
      const n = counts.get(prefix) ?? 0;
      counts.set(prefix, n + 1);
      const digest = createHash('sha256').update(`${key}\n${prefix}\n${n}`).digest();
      let random = '';
      for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i] % 32];
      return prefix + time + random;
    },
  };
};
