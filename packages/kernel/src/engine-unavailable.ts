/**
 * An engine (the event store, the read store, the bus) did not answer in time: a passing
 * condition, not a bug. Adapters wrap their drivers' connection errors in it, so that the code
 * above the ports can answer 503 with Retry-After, without knowing which engine runs.
 */
export class EngineUnavailable extends Error {
  constructor(
    readonly engine: string,
    cause: unknown,
  ) {
    super(`the ${engine} did not answer (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'EngineUnavailable';
  }
}
