export * from './port';
export { MemoryBus } from './memory';
export { NatsBus } from './nats';
export type { NatsBusOptions } from './nats';
export { LazyBus } from './lazy';
