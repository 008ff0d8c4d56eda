import { timingSafeEqual } from 'node:crypto';
import { Clock } from '../clock';
import { ReadModels, WorkspaceDoc } from '../queries/read-models';
import { DUMMY_HASH, hashToken, keyIdOf } from './tokens';

export interface Principal {
  keyId: string;
  workspaceId: string;
  environment: 'live' | 'test';
  scopes: readonly string[];
  workspace: WorkspaceDoc;
  /** Expiry of the key, in ms since the epoch, or null. */
  expiresAt: number | null;
}

/**
 * Authenticated keys are remembered this long, so a hot key costs one hash per request.
 * Short enough that a revocation or plan change is seen within a second (operator interface).
 */
export const PRINCIPAL_TTL_MS = 500;
const MAX_CACHED = 10_000;

/** A bearer token to its principal; null for unknown, malformed, expired or revoked keys. */
export const authenticator = (reads: ReadModels, clock: Clock) => {
  // Keyed by the token's hash, never the token; only successes are cached, so guessing
  // keys gains nothing from it.
  const cache = new Map<string, { principal: Principal; until: number }>();

  const lookup = async (token: string, hash: Buffer): Promise<Principal | null> => {
    const keyId = keyIdOf(token);
    const key = keyId ? await reads.apiKeys.get(keyId) : null;
    const stored = Buffer.from(key?.key_hash ?? DUMMY_HASH, 'hex');
    // Constant time, and a comparison happens even for unknown ids so misses take as long.
    if (!(stored.length === hash.length && timingSafeEqual(stored, hash)) || !key) return null;
    if (key.revoked_at !== null) return null;
    const workspace = await reads.workspaces.get(key.workspace_id);
    if (!workspace) return null;
    return {
      keyId: key.id,
      workspaceId: key.workspace_id,
      environment: key.environment,
      scopes: key.scopes,
      workspace,
      expiresAt: key.expires_at === null ? null : Date.parse(key.expires_at),
    };
  };

  return async (token: string): Promise<Principal | null> => {
    const now = clock.now().getTime();
    const hash = hashToken(token);
    const cacheKey = hash.toString('hex');
    const cached = cache.get(cacheKey);
    let principal = cached && cached.until > now ? cached.principal : null;
    if (!principal) {
      principal = await lookup(token, hash);
      if (cache.size >= MAX_CACHED) cache.clear();
      if (principal) cache.set(cacheKey, { principal, until: now + PRINCIPAL_TTL_MS });
      else cache.delete(cacheKey);
    }
    if (principal && principal.expiresAt !== null && principal.expiresAt <= now) return null;
    return principal;
  };
};
