import { randomUUID } from 'node:crypto';
import type { Bus, BusSubscription } from '@support/bus';
import type { Collection, Doc, ReadStore } from '@support/readstore';
import type { Clock } from '../clock';

interface LeaseDoc extends Doc {
  holder: string | null;
  /** Changes with every grant: a renewal or release by an older holder matches nothing. */
  token: string;
  expires_at: number;
}

/** What the leases need of the bus: presence, to tell a crashed holder from a slow one. */
export type Presence = Pick<Bus, 'announce' | 'gone'>;

/**
 * Leases in the read store: a name held by one instance until it stops renewing it. Granting
 * is a compare-and-set on the previous grant's token, so two instances racing for an expired
 * lease cannot both win. A holder that crashed (it missed a renewal, and the bus knows nobody
 * answers for it) is taken over before its lease expires: a SIGKILLed projector's read models
 * move within a round or two, not a whole TTL.
 */
export class Leases {
  private readonly docs: Collection<LeaseDoc>;
  /** This process's holders, announced on the bus before their first grant. */
  private readonly announced = new Map<string, Promise<BusSubscription | null>>();

  constructor(
    reads: ReadStore,
    private readonly clock: Clock,
    readonly ttlMs: number,
    private readonly presence: Presence | null = null,
  ) {
    this.docs = reads.collection<LeaseDoc>({ name: 'leases' });
  }

  /**
   * Whether the holder of a grant (or heartbeat) that runs to `expiresAt` crashed before it
   * expired: it missed a renewal (they come every quarter of the TTL: none for 3/8 of it) and
   * the bus knows nobody answers for it. Both, so that a holder only cut off from the bus, or
   * only slow, is never taken for dead.
   */
  async crashed(holder: string | null, expiresAt: number): Promise<boolean> {
    if (!this.presence || holder === null) return false;
    const sinceRenewal = this.now() - (expiresAt - this.ttlMs);
    return sinceRenewal > (this.ttlMs * 3) / 8 && (await this.presence.gone(holder).catch(() => false));
  }

  /** Answers for `holder` on the bus from now on (once; a failure is tried again on the next grant). */
  private announce(holder: string): Promise<BusSubscription | null> {
    let announcing = this.announced.get(holder);
    if (!announcing) {
      announcing = this.presence
        ? this.presence.announce(holder).catch(() => {
            this.announced.delete(holder);
            return null;
          })
        : Promise.resolve(null);
      this.announced.set(holder, announcing);
    }
    return announcing;
  }

  /** Stops answering for this process's holders (their leases are released or lapse). */
  async close(): Promise<void> {
    const announced = [...this.announced.values()];
    this.announced.clear();
    for (const a of announced) await (await a)?.close().catch(() => undefined);
  }

  /** The time by this process's clock, in ms: a holder counts its grant's lifetime from it. */
  now(): number {
    return this.clock.now().getTime();
  }

  /**
   * The lease's token when `holder` now holds it (free, expired, released or its holder crashed),
   * else null. A lease already granted to `holder` is a previous run's under the same id (a
   * container restarted keeps its hostname and pid 1): callers ask only for what they do not
   * hold, so it is taken back at once.
   */
  async acquire(name: string, holder: string): Promise<string | null> {
    await this.announce(holder);
    const now = this.now();
    const token = randomUUID();
    const grant = { holder, token, expires_at: now + this.ttlMs };
    if (await this.docs.insert({ id: name, ...grant })) return token;
    const current = await this.docs.get(name);
    if (!current) return null;
    if (current.expires_at > now && current.holder !== holder && !(await this.crashed(current.holder, current.expires_at))) return null;
    return (await this.docs.update(name, grant, { token: current.token })) ? token : null;
  }

  /** Extends a held lease; false when it was taken over meanwhile (stop the work at once). */
  renew(name: string, token: string): Promise<boolean> {
    return this.docs.update(name, { expires_at: this.now() + this.ttlMs }, { token });
  }

  /** Frees a held lease at once, so a standby takes over without waiting for it to expire. */
  async release(name: string, token: string): Promise<void> {
    await this.docs.update(name, { holder: null, expires_at: 0 }, { token });
  }

  /** Who holds `name` now (null: nobody, or the lease expired). */
  async holder(name: string): Promise<string | null> {
    const doc = await this.docs.get(name);
    return doc && doc.expires_at > this.now() ? doc.holder : null;
  }
}
