/**
 * `then` for a value that may already be here: applied at once to a value, after a promise
 * otherwise. For hot paths whose in-process case has its answer at once (rate-limit counters,
 * a cached key), so that case costs no promise and no turn of the microtask queue.
 */
export const nowOrLater = <T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> =>
  value instanceof Promise ? value.then(next) : next(value);
