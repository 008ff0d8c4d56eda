// The customers feature, as every process may load it: its events, decider, commands, read
// model, resource (webhook payloads) and manifest. Its routes are `@support/customers/routes`,
// so the workers load no route of it.
export * from './events';
export * from './identity';
export * from './decider';
export * from './commands';
export * from './lead-rights';
export * from './contact-events';
export * from './projection';
export * from './read-model';
export * from './resource';
export * from './manifest';
