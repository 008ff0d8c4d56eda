import fc from 'fast-check';
import { inspect, isDeepStrictEqual } from 'node:util';

/**
 * fast-check's seed: a new one every run (so every run explores new inputs), printed by the
 * caller, and FC_SEED=<n> replays a failure.
 */
export const propertySeed = (): number => (process.env.FC_SEED ? Number(process.env.FC_SEED) : (Date.now() ^ (process.pid << 16)) >>> 1);

/** Runs a property with the given seed; a failure is shrunk, and its message names the seed and the smallest counterexample. */
export const checkProperty = async <Ts extends [unknown, ...unknown[]]>(
  seed: number,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> => {
  const result = await fc.check(property as fc.IAsyncProperty<Ts>, { seed, numRuns });
  if (result.failed) throw new Error(`property failed (FC_SEED=${seed}): ${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
};

/**
 * Inside a property: throws when `actual` is not deeply, strictly `expected`, so that fast-check
 * shrinks the input and the failure names the seed and the smallest counterexample.
 */
export const expectSame = (actual: unknown, expected: unknown, label = 'value'): void => {
  if (!isDeepStrictEqual(actual, expected))
    throw new Error(`${label} differs:\n  expected ${inspect(expected, { depth: null })}\n  actual   ${inspect(actual, { depth: null })}`);
};
