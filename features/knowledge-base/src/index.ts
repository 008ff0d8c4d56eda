// The knowledge-base feature, as every process may load it: its events, import input, decider,
// import kind, read model and manifest. The API's part (resource and routes) is
// `@support/knowledge-base/routes`. The agent indexes the articles (`@support/agent`).
export * from './events';
export * from './input';
export * from './decider';
export * from './import';
export * from './projection';
export * from './manifest';
