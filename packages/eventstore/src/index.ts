// The port and what every adapter shares. Each adapter is its own entry point, so a process
// loads only the vendor client it uses: '@support/eventstore/sqlite', '@support/eventstore/esdb'.
export * from './port';
export * from './position';
export * from './retrying';
export * from './upcasting';
