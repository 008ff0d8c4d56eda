export * from './port';
export { MemoryBus } from './memory';
