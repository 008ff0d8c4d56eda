import fc from 'fast-check';

/**
 * fast-check's seed: a new one every run (so every run explores new inputs), printed by the
 * caller, and FC_SEED=<n> replays a failure.
 */
export const propertySeed = (): number => (process.env.FC_SEED ? Number(process.env.FC_SEED) : (Date.now() ^ (process.pid << 16)) >>> 1);

/** Runs an async property with the given seed; a failure's message names the seed and the counterexample. */
export const checkProperty = async <Ts extends [unknown, ...unknown[]]>(
  seed: number,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> => {
  const result = await fc.check(property as fc.IAsyncProperty<Ts>, { seed, numRuns, endOnFailure: true });
  if (result.failed) throw new Error(`property failed (FC_SEED=${seed}): ${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
};
