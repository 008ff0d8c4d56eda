import type { Logger } from '@support/application';
import { backoffMs } from '@support/kernel';

/**
 * Bookkeeping that must not be lost to a passing store error (a delivery's booked attempt, an
 * endpoint's count): retried with capped backoff until it is written, or until the dispatcher
 * stops (then the attempt's lease, once expired, books it as interrupted).
 */
export const persist = async (
  write: () => Promise<unknown>,
  { what, fields, log, stopped }: { what: string; fields: Record<string, unknown>; log: Logger; stopped: () => boolean },
): Promise<void> => {
  for (let failures = 1; ; failures++) {
    try {
      await write();
      return;
    } catch (err) {
      if (stopped()) throw err;
      const delay = backoffMs(failures, { baseMs: 50, maxMs: 5000 });
      log.warn(`${what} failed; retrying`, { ...fields, failures, retry_in_ms: delay, error: String(err) });
      await new Promise((r) => setTimeout(r, delay));
    }
  }
};
