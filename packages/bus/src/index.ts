// The port and what every adapter shares. Each adapter is its own entry point, so a process
// loads only the vendor client it uses: '@support/bus/memory', '@support/bus/nats'.
export * from './port';
export { LazyBus } from './lazy';
