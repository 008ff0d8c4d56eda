export * from './port';
export { SqliteReadStore } from './sqlite';
export { MongoReadStore } from './mongo';
export { CheckpointWriter } from './checkpoint-writer';
export { servingIndex } from './indexes';
