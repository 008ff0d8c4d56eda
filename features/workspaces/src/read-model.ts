import { type Application, perApplication } from '@support/application';
import { authenticator } from './authenticate';
import { ApiKeys } from './key-commands';
import { API_KEYS, type ApiKeyDocument } from './key-projection';
import { Workspaces } from './workspace-commands';
import { WORKSPACES, type WorkspaceDocument } from './workspace-projection';

/** The workspaces' and API keys' commands, read models and the key check, over one application's ports. */
export const workspacesOf = perApplication((app: Application) => {
  const commands = new Workspaces(app.deps, app.reservations);
  const reads = app.engines.reads.collection<WorkspaceDocument>(WORKSPACES);
  const apiKeys = app.engines.reads.collection<ApiKeyDocument>(API_KEYS);
  return {
    commands,
    keys: new ApiKeys(app.deps, commands),
    reads,
    apiKeys,
    /** A bearer token to its principal (the HTTP core's `identify`). */
    authenticate: authenticator({ workspaces: reads, apiKeys }, app.clock, async () =>
      app.projectedPast(await app.engines.events.head(), app.config.readYourWritesTimeoutMs),
    ),
  };
});
