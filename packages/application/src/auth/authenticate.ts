import { Clock } from '../clock';
import { ReadModels, WorkspaceDoc } from '../queries/read-models';
import { keyIdOf, tokenMatches } from './tokens';

export interface Principal {
  keyId: string;
  workspaceId: string;
  environment: 'live' | 'test';
  scopes: readonly string[];
  workspace: WorkspaceDoc;
}

/** A bearer token to its principal; null for unknown, malformed, expired or revoked keys. */
export const authenticator = (reads: ReadModels, clock: Clock) => async (token: string): Promise<Principal | null> => {
  const keyId = keyIdOf(token);
  const key = keyId ? await reads.apiKeys.get(keyId) : null;
  if (!tokenMatches(token, key?.key_hash ?? null) || !key) return null;
  if (key.revoked_at !== null) return null;
  if (key.expires_at !== null && Date.parse(key.expires_at) <= clock.now().getTime()) return null;
  const workspace = await reads.workspaces.get(key.workspace_id);
  if (!workspace) return null;
  return { keyId: key.id, workspaceId: key.workspace_id, environment: key.environment, scopes: key.scopes, workspace };
};
