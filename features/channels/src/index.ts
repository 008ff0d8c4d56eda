// The channels feature, as every process may load it: its events, import input, decider, import
// kind, read model, the query conversations need (via the catalog) and manifest. The API's part
// (resource and routes) is `@support/channels/routes`.
export * from './events';
export * from './input';
export * from './decider';
export * from './import';
export * from './projection';
export { newestChannelOf } from './queries';
export * from './manifest';
