import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted: one text per JSON value. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};
import { Collection, Doc, ReadStore } from '@support/readstore';
import type { Clock } from '@support/application';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry extends Doc {
  workspace_id: string;
  fingerprint: string;
  /** When the key first arrived: its request's ids are made from it (keyedIds), on every retry. */
  first_seen_ms: number;
  /** `failed`: the last try answered an error (kept: a 5xx may have saved the write). */
  state: 'in_flight' | 'done' | 'failed';
  expires_at: number;
  status?: number;
  body?: unknown;
  /** The request whose answer is kept (`Original-Request-Id` on a replay: the `request_id` in its events' metadata). */
  request_id?: string | null;
}

/** `key`: the hash recorded in the events' metadata; `firstSeenMs`: the seed of the request's ids. */
export type Begin =
  | { kind: 'proceed'; entryId: string; key: string; firstSeenMs: number }
  | { kind: 'replay'; status: number; body: unknown; requestId: string | null }
  | { kind: 'mismatch' };

/**
 * The Idempotency-Key cache (spec 4.1): the first 2xx response of a POST, per workspace and
 * key, for 24 hours, replayed as it was. It is a cache, not the decision: every event a keyed
 * request appends carries the key's hash, and a command that finds it in its stream performs
 * nothing (commands/execute.ts). So a request whose answer was lost (a timeout, a 5xx, the
 * process killed after the append) proceeds again at once, with the same ids, and answers
 * the saved resource; two tries of one request running at once are decided once.
 */
export class IdempotencyStore {
  private readonly entries: Collection<Entry>;

  constructor(
    reads: ReadStore,
    private readonly clock: Clock,
  ) {
    this.entries = reads.collection<Entry>({ name: 'idempotency' });
  }

  /**
   * What makes two tries the same request: method, path and the body's JSON value (keys in any
   * order, any whitespace), as a client that re-serializes its body on a retry expects.
   */
  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${canonicalJson(body ?? {})}`)
      .digest('hex');
  }

  async begin(workspaceId: string, key: string, fingerprint: string): Promise<Begin> {
    const hash = createHash('sha256').update(key).digest('hex');
    const id = `${workspaceId}:${hash}`;
    // The events carry a hash of workspace, key and first arrival: a key means nothing in another
    // workspace, nor once it has expired and is used again for another request.
    const recorded = (firstSeenMs: number) => createHash('sha256').update(`${workspaceId}\n${key}\n${firstSeenMs}`).digest('hex').slice(0, 32);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now().getTime();
      const fresh: Entry = { id, workspace_id: workspaceId, fingerprint, first_seen_ms: now, state: 'in_flight', expires_at: now + IDEMPOTENCY_TTL_MS };
      if (await this.entries.insert(fresh)) return { kind: 'proceed', entryId: id, key: recorded(now), firstSeenMs: now };
      const existing = await this.entries.get(id);
      if (!existing) continue;
      if (existing.expires_at <= now) {
        await this.entries.delete(id);
        continue;
      }
      if (existing.state === 'done')
        return existing.fingerprint === fingerprint
          ? { kind: 'replay', status: existing.status!, body: existing.body, requestId: existing.request_id ?? null }
          : { kind: 'mismatch' };
      if (existing.fingerprint !== fingerprint) {
        // A request refused with a 4xx saved nothing: its key may carry a corrected request.
        if (existing.state === 'failed' && existing.status !== undefined && existing.status < 500) {
          await this.entries.delete(id);
          continue;
        }
        return { kind: 'mismatch' };
      }
      // The same request again: after a failure, or while (or after) another try of it runs.
      return { kind: 'proceed', entryId: id, key: recorded(existing.first_seen_ms), firstSeenMs: existing.first_seen_ms };
    }
    throw new Error('the idempotency record kept changing under this request');
  }

  async complete(entryId: string, status: number, body: unknown, requestId: string | null = null): Promise<void> {
    const existing = await this.entries.get(entryId);
    if (!existing) return;
    await this.entries.put({ ...existing, state: 'done', status, body, request_id: requestId, expires_at: this.clock.now().getTime() + IDEMPOTENCY_TTL_MS });
  }

  /** A failed try keeps the key's record (its first-seen time): a retry makes the same ids. */
  async fail(entryId: string, status: number): Promise<void> {
    const existing = await this.entries.get(entryId);
    if (!existing || existing.state === 'done') return;
    await this.entries.put({ ...existing, state: 'failed', status });
  }
}
