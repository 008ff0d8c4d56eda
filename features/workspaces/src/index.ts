// Workspaces and their API keys: events, deciders, commands, read models, the key check
// (`authenticate`) and the manifest. No routes of their own: the admin CLI creates both, and
// `GET /me` (services/api) shows the key in use.
export * from './workspace-events';
export * from './workspace-decider';
export * from './workspace-commands';
export * from './workspace-projection';
export * from './key-events';
export * from './key-decider';
export * from './key-commands';
export * from './key-projection';
export * from './tokens';
export * from './authenticate';
export * from './read-model';
export * from './manifest';
