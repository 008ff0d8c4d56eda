import type { Doc } from '@support/readstore';

/** What a request's key knows of its workspace: the workspaces feature's read model holds at least this. */
export interface PrincipalWorkspace extends Doc {
  workspace_id: string;
  name: string;
  slug: string;
  plan: string;
  credits: number;
  sla_tracking: boolean;
}

/** Who a request acts for: its key, the key's workspace, environment and scopes. */
export interface Principal {
  keyId: string;
  workspaceId: string;
  environment: 'live' | 'test';
  scopes: readonly string[];
  workspace: PrincipalWorkspace;
  /** Expiry of the key, in ms since the epoch, or null. */
  expiresAt: number | null;
}

/**
 * A bearer token to its principal; null for unknown, malformed, expired or revoked keys. At
 * once for a key verified moments ago (no promise on a hot key's requests); else a promise.
 */
export type Authenticate = (token: string) => Principal | null | Promise<Principal | null>;
