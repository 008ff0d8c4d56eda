/**
 * Waiting in tests: on an observable condition, never on a guessed sleep. The deadlines are
 * generous on purpose: they only decide how long a broken rule takes to fail, never whether a
 * working one passes, so they are not timing asserts (timings are the benchmark's business).
 */

/**
 * Resolves once `cond` holds; throws when it still does not after `ms` (the test fails then).
 * `what` names the condition in that failure.
 */
export const until = async (cond: () => boolean | Promise<boolean>, ms = 10_000, intervalMs = 20, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};

/** `promise`'s outcome, or a failure when it has not settled after `ms` (for calls that must not hang). */
export const within = <T>(promise: Promise<T>, ms: number, what = 'the call'): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};
