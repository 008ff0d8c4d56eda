import { type Application, perApplication } from '@support/application';
import { authenticator } from './authenticate';
import { ApiKeys } from './key-commands';
import { API_KEYS, type ApiKeyDocument } from './key-projection';
import { Workspaces } from './workspace-commands';
import { WORKSPACES, type WorkspaceDocument } from './workspace-projection';

/** The workspaces' and API keys' commands, read models and the key check, over one application's ports. */
export const workspacesOf = perApplication((app: Application) => {
  const workspaces = new Workspaces(app.deps, app.reservations);
  const reads = { workspaces: app.engines.reads.collection<WorkspaceDocument>(WORKSPACES), apiKeys: app.engines.reads.collection<ApiKeyDocument>(API_KEYS) };
  return {
    commands: workspaces,
    keys: new ApiKeys(app.deps, workspaces),
    reads: reads.workspaces,
    apiKeys: reads.apiKeys,
    /** A bearer token to its principal (the HTTP core's `identify`). */
    authenticate: authenticator(reads, app.clock),
  };
});
