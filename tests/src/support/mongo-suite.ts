import t from 'tap';
import { mongoSkip } from './ferret';

/**
 * Runs an end-to-end suite (loaded by `suite`) with every service and admin run of this test
 * process keeping its read models on MongoDB: MONGODB_URL, or a FerretDB of the process's own,
 * a database per data directory (support/service). Skipped, with the reason, where there is no
 * server to be had; never in CI.
 */
export const onMongoReadStore = (suite: () => Promise<unknown>): void => {
  const skip = mongoSkip();
  if (skip) {
    t.plan(0, skip);
    return;
  }
  process.env.TEST_READ_STORE = 'mongo';
  suite().catch((err: unknown) => t.fail(`the suite did not load: ${String(err)}`));
};
