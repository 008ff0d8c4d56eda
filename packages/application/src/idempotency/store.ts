import { createHash } from 'node:crypto';
import { Collection, Doc, ReadStore } from '@support/readstore';
import { Clock } from '../clock';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request still marked in flight after this long is taken as abandoned (its process died). */
const LOCK_MS = 60_000;

interface Entry extends Doc {
  workspace_id: string;
  fingerprint: string;
  state: 'in_flight' | 'done';
  locked_until: number;
  expires_at: number;
  status?: number;
  body?: unknown;
}

export type Begin = { kind: 'proceed'; entryId: string } | { kind: 'replay'; status: number; body: unknown } | { kind: 'in_flight' } | { kind: 'mismatch' };

/**
 * The Idempotency-Key cache: the first 2xx response of a POST, per workspace and key, for 24
 * hours. Operational data, so it lives in the read store, not in the event log.
 */
export class IdempotencyStore {
  private readonly entries: Collection<Entry>;

  constructor(
    reads: ReadStore,
    private readonly clock: Clock,
  ) {
    this.entries = reads.collection<Entry>({ name: 'idempotency' });
  }

  static fingerprint(method: string, path: string, rawBody: string): string {
    return createHash('sha256').update(`${method} ${path}\n${rawBody}`).digest('hex');
  }

  async begin(workspaceId: string, key: string, fingerprint: string): Promise<Begin> {
    const id = `${workspaceId}:${createHash('sha256').update(key).digest('hex')}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now().getTime();
      const fresh: Entry = {
        id,
        workspace_id: workspaceId,
        fingerprint,
        state: 'in_flight',
        locked_until: now + LOCK_MS,
        expires_at: now + IDEMPOTENCY_TTL_MS,
      };
      if (await this.entries.insert(fresh)) return { kind: 'proceed', entryId: id };
      const existing = await this.entries.get(id);
      if (!existing) continue;
      const abandoned = existing.state === 'in_flight' && existing.locked_until <= now;
      if (existing.expires_at <= now || abandoned) {
        await this.entries.delete(id);
        continue;
      }
      if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (existing.state === 'in_flight') return { kind: 'in_flight' };
      return { kind: 'replay', status: existing.status!, body: existing.body };
    }
    return { kind: 'in_flight' };
  }

  async complete(entryId: string, status: number, body: unknown): Promise<void> {
    const existing = await this.entries.get(entryId);
    if (!existing) return;
    await this.entries.put({ ...existing, state: 'done', status, body, expires_at: this.clock.now().getTime() + IDEMPOTENCY_TTL_MS });
  }

  /** A failed request frees its key, so the client can retry with the same one. */
  async abandon(entryId: string): Promise<void> {
    await this.entries.delete(entryId);
  }
}
