import type { EventStore, Position } from '@support/eventstore';
import { AnyProjection, CHECKPOINT, Projector, readModelCheckpoint } from '@support/projections';
import type { Collection, Doc, ReadStore } from '@support/readstore';
import type { Clock } from '../clock';
import type { Logger } from '@support/kernel';
import { Ticker } from './leased-worker';
import type { Leases } from './leases';
import type { LeaseHealth, Worker } from './worker';

interface Member extends Doc {
  expires_at: number;
}

export const readModelLease = (collection: string): string => `projection:${collection}`;

export interface ProjectorPoolDeps {
  events: EventStore;
  reads: ReadStore;
  leases: Leases;
  clock: Clock;
  log: Logger;
  /** After each batch: a read model's projector has saved `position` (signalled to API processes). */
  onCheckpoint?: (checkpoint: string, position: Position) => void;
  /** See ProjectorOptions.setAsideAfter. */
  setAsideAfter?: number;
}

/**
 * Projectors that scale out: each read model is a lease, and the live instances share them out
 * evenly. Every round (`tickMs`) an instance renews its heartbeat and its leases, works out its
 * fair share (read models ÷ live instances, rounded up), gives back what exceeds it and takes
 * free or expired leases up to it. One read model is applied by one instance at a time, in log
 * order, from its own checkpoint; a crashed instance's read models are taken over once its
 * leases and heartbeat expire (failover within the lease TTL plus one round), or sooner, once
 * it missed a renewal and the bus knows it is gone (see Leases.crashed).
 */
export class ProjectorPool implements Worker {
  /** Read models held: each lease's token, and when it runs out by this process's clock unless renewed (`until`). */
  private readonly held = new Map<string, { token: string; until: number; projector: Projector }>();
  private readonly members: Collection<Member>;
  private readonly ticker: Ticker;
  /** Instances start looking for free read models at different places, so they rarely race. */
  private readonly offset: number;

  constructor(
    private readonly deps: ProjectorPoolDeps,
    private readonly projections: readonly AnyProjection[],
    private readonly holder: string,
    tickMs = Math.max(50, Math.floor(deps.leases.ttlMs / 4)),
  ) {
    this.members = deps.reads.collection<Member>({ name: 'projector_members' });
    this.ticker = new Ticker(tickMs, () => this.tick());
    this.offset = [...holder].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % projections.length;
  }

  start(): Promise<void> {
    return this.ticker.start();
  }

  /** The read models this instance applies now. */
  get owned(): string[] {
    return [...this.held.keys()].sort();
  }

  async tick(): Promise<void> {
    const { leases, clock, log } = this.deps;
    try {
      const now = clock.now().getTime();
      await this.members.put({ id: this.holder, expires_at: now + leases.ttlMs });
      const members = (await this.members.find({})).items;
      let live = 0;
      for (const m of members) if (m.expires_at > now && !(m.id !== this.holder && (await leases.crashed(m.id, m.expires_at)))) live += 1;
      // Instances gone long ago (each run has its own id) are forgotten.
      for (const m of members) if (m.expires_at < now - 10 * leases.ttlMs) await this.members.delete(m.id);
      const share = Math.ceil(this.projections.length / Math.max(1, live));
      for (const [name, h] of [...this.held]) {
        if (await leases.renew(readModelLease(name), h.token)) {
          h.until = now + leases.ttlMs;
          continue;
        }
        log.warn('read model taken over by another projector; stopping it here', { read_model: name });
        this.held.delete(name);
        await h.projector.stop();
      }
      while (this.held.size > share) await this.giveBack(this.owned[this.owned.length - 1]);
      for (let i = 0; i < this.projections.length && this.held.size < share; i++) {
        const projection = this.projections[(this.offset + i) % this.projections.length];
        const name = projection.collection.name;
        if (this.held.has(name)) continue;
        const token = await leases.acquire(readModelLease(name), this.holder);
        if (token !== null) await this.take(name, token, now + leases.ttlMs, projection);
      }
    } catch (err) {
      log.warn('projector round failed; trying again', { error: err instanceof Error ? err.message : String(err) });
      await this.lapse();
    }
  }

  /** Stops the read models whose leases could not be renewed within their TTL: another instance may apply them by now. */
  private async lapse(): Promise<void> {
    const now = this.deps.clock.now().getTime();
    for (const [name, h] of [...this.held]) {
      if (h.until > now) continue;
      this.deps.log.warn('read model lease lapsed (not renewed within its TTL); stopping it here', { read_model: name, holder: this.holder });
      this.held.delete(name);
      await h.projector.stop().catch(() => undefined);
    }
  }

  private async take(name: string, token: string, until: number, projection: AnyProjection): Promise<void> {
    const { events, reads, log, onCheckpoint, setAsideAfter } = this.deps;
    const projector = new Projector(events, reads, [projection], log, {
      checkpoint: readModelCheckpoint(name),
      fallbackCheckpoint: CHECKPOINT,
      onCheckpoint,
      saveEveryMs: 250,
      setAsideAfter,
    });
    this.held.set(name, { token, until, projector });
    log.info('read model taken', { read_model: name, holder: this.holder });
    await projector.start();
  }

  private async giveBack(name: string): Promise<void> {
    const h = this.held.get(name)!;
    this.held.delete(name);
    await h.projector.stop();
    await this.deps.leases.release(readModelLease(name), h.token);
    this.deps.log.info('read model given back', { read_model: name, holder: this.holder });
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
    for (const name of this.owned) await this.giveBack(name).catch(() => undefined);
    await this.members.delete(this.holder).catch(() => undefined);
  }

  health() {
    return [...this.held.values()].map((h) => h.projector.health());
  }

  leases(): LeaseHealth[] {
    return this.projections.map((p) => ({ name: readModelLease(p.collection.name), role: this.held.has(p.collection.name) ? 'active' : 'standby' }));
  }
}
