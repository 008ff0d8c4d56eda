// The tags feature, as every process may load it: its events, decider, commands, read model and
// manifest. The API's part (resource and routes) is `@support/tags/routes`, so the projector,
// relay and dispatcher load no HTTP code of it.
export * from './events';
export * from './decider';
export * from './commands';
export * from './projection';
export * from './manifest';
