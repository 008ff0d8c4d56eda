export * from './port';
export { SqliteReadStore } from './sqlite';
export { MongoReadStore } from './mongo';
