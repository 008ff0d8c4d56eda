// The port and what every adapter shares. Each adapter is its own entry point, so a process
// loads only the vendor client it uses: '@support/readstore/sqlite', '@support/readstore/mongo'.
export * from './port';
export { CheckpointWriter } from './checkpoint-writer';
export { servingIndex } from './indexes';
