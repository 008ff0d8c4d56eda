import { adminJson } from './service';
import { client, Client } from './client';
import { until } from './wait';

export interface Tenant {
  workspaceId: string;
  key: string;
  keyId: string;
  api: Client;
}

/**
 * A workspace and a key made with the admin CLI, waited for until the running service
 * accepts the key (the CLI writes events; the service projects them).
 */
export const tenant = async (baseUrl: string, dataDir: string, opts: { name?: string; keyArgs?: string[]; workspaceArgs?: string[] } = {}): Promise<Tenant> => {
  const ws = await adminJson<{ id: string }>(dataDir, 'workspace', 'create', '--name', opts.name ?? 'Test Workspace', ...(opts.workspaceArgs ?? []));
  return keyFor(baseUrl, dataDir, ws.id, opts.keyArgs);
};

export const keyFor = async (baseUrl: string, dataDir: string, workspaceId: string, keyArgs: string[] = []): Promise<Tenant> => {
  const k = await adminJson<{ id: string; key: string }>(dataDir, 'key', 'create', '--workspace', workspaceId, '--name', 'test key', ...keyArgs);
  const api = client(baseUrl, k.key);
  // Polls gently: unauthenticated calls count against the caller's address bucket.
  await until(async () => ![401, 429].includes((await api.get('/me')).status), 10_000, 100);
  return { workspaceId, key: k.key, keyId: k.id, api };
};
