import { randomUUID } from 'node:crypto';
import type { Collection, Doc, ReadStore } from '@support/readstore';
import type { Clock } from '../clock';

interface LeaseDoc extends Doc {
  holder: string | null;
  /** Changes with every grant: a renewal or release by an older holder matches nothing. */
  token: string;
  expires_at: number;
}

/**
 * Leases in the read store: a name held by one instance until it stops renewing it. Granting
 * is a compare-and-set on the previous grant's token, so two instances racing for an expired
 * lease cannot both win.
 */
export class Leases {
  private readonly docs: Collection<LeaseDoc>;

  constructor(
    reads: ReadStore,
    private readonly clock: Clock,
    readonly ttlMs: number,
  ) {
    this.docs = reads.collection<LeaseDoc>({ name: 'leases' });
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  /** The lease's token when `holder` now holds it (free, expired or released), else null. */
  async acquire(name: string, holder: string): Promise<string | null> {
    const now = this.now();
    const token = randomUUID();
    const grant = { holder, token, expires_at: now + this.ttlMs };
    if (await this.docs.insert({ id: name, ...grant })) return token;
    const current = await this.docs.get(name);
    if (!current || current.expires_at > now) return null;
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
