import t from 'tap';
import { removeDir, Service, startService, tempDir } from './service';
import { Tenant, tenant } from './workspace';

/**
 * The service a test file runs against, and its data folder; `ws`: a workspace with a key on
 * it. A test that restarts the service puts the new one in `svc` (the teardown stops it).
 */
export interface ServiceFixture {
  readonly dir: string;
  svc: Service;
  ws: Tenant;
}

export interface FixtureOptions {
  /** The service's environment; a function when it depends on something started first (a fake server). */
  env?: Record<string, string> | (() => Promise<Record<string, string>> | Record<string, string>);
  /** false: no workspace; else the workspace's name (default the test helper's). */
  tenant?: false | { name?: string };
}

/**
 * The test file's own service: started before its tests (with a workspace and key, `ws`,
 * unless `tenant` is false), stopped and its data removed after them. Read its fields inside
 * the tests: they are set once the service runs. A file's own `t.before`, registered after,
 * runs after it (seeding, enabling the agent).
 */
export const serviceFixture = (options: FixtureOptions = {}): ServiceFixture => {
  const fixture = { dir: tempDir() } as ServiceFixture;
  t.before(async () => {
    const env = typeof options.env === 'function' ? await options.env() : options.env;
    fixture.svc = await startService(fixture.dir, env);
    if (options.tenant !== false) fixture.ws = await tenant(fixture.svc.baseUrl, fixture.dir, options.tenant ?? {});
  });
  t.teardown(async () => {
    await fixture.svc?.stop();
    removeDir(fixture.dir);
  });
  return fixture;
};
