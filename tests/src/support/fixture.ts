import t from 'tap';
import { removeDir, Service, startService, tempDir } from './service';
import { Tenant, tenant } from './workspace';

/** The service a test file runs against, and its data folder; `ws`: a workspace with a key on it. */
export interface ServiceFixture {
  readonly dir: string;
  readonly svc: Service;
  readonly ws: Tenant;
}

/**
 * The test file's own service: started before its tests (with a workspace and key, `ws`,
 * unless `tenant` is false), stopped and its data removed after them. Read its fields inside
 * the tests: they are set once the service runs.
 */
export const serviceFixture = (options: { env?: Record<string, string>; tenant?: boolean } = {}): ServiceFixture => {
  const fixture = { dir: tempDir() } as { dir: string; svc: Service; ws: Tenant };
  t.before(async () => {
    fixture.svc = await startService(fixture.dir, options.env);
    if (options.tenant !== false) fixture.ws = await tenant(fixture.svc.baseUrl, fixture.dir);
  });
  t.teardown(async () => {
    await fixture.svc?.stop();
    removeDir(fixture.dir);
  });
  return fixture;
};
