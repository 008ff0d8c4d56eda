// The conversations and messages feature, as every process may load it: its events, decider,
// commands, read models, resources (webhook payloads) and manifest. Its routes are
// `@support/conversations/routes`, so the workers load no route of it.
export * from './events';
export * from './decider';
export * from './commands';
export * from './conversation-projection';
export * from './message-projection';
export * from './read-model';
export * from './conversation-resource';
export * from './message-resource';
export * from './manifest';
