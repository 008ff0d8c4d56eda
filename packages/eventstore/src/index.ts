export * from './port';
export * from './position';
export { SqliteEventStore } from './sqlite';
export { EsdbEventStore } from './esdb';
export * from './retrying';
