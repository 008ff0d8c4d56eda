import { createHash } from 'node:crypto';
import { ID_PREFIX } from '@support/domain';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID whose time is `ms` and whose 80 random bits come from hashing `seed`: sortable like any
 * id, and the same every time for the same seed, so a redelivered event makes no second record.
 */
export const deterministicUlid = (ms: number, seed: string): string => {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const hash = createHash('sha256').update(seed).digest();
  let bits = 0n;
  for (let i = 0; i < 10; i++) bits = (bits << 8n) | BigInt(hash[i]);
  let random = '';
  for (let i = 0; i < 16; i++) {
    random = CROCKFORD[Number(bits & 31n)] + random;
    bits >>= 5n;
  }
  return time + random;
};

/** The webhook event id of a domain event (spec 6.2 `id`, `Service-Event-Id`). */
export const webhookEventId = (domainEventId: string, occurredAt: string) => ID_PREFIX.event + deterministicUlid(Date.parse(occurredAt), domainEventId);

/** One delivery per event and endpoint. */
export const deliveryId = (eventId: string, endpointId: string, occurredAt: string) =>
  ID_PREFIX.delivery + deterministicUlid(Date.parse(occurredAt), `${eventId}/${endpointId}`);
