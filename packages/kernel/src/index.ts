export { EngineUnavailable } from './engine-unavailable';
export { InFlight } from './in-flight';
export { Backoff, backoffMs } from './backoff';
export { jsonLogger, Logger, LogLevel, silentLogger } from './log';
export { LATENCY_BUCKETS, Metrics } from './metrics';
export * from './tracing';
