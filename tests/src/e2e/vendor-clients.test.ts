import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { removeDir, startService, tempDir } from '../support/service';

// Each adapter is its own entry point (`@support/eventstore/esdb`, `@support/readstore/mongo`,
// `@support/bus/nats`…), loaded only when configured: the embedded default never loads a vendor
// client it does not use. Checked on the real `npm start` process: what it had loaded by exit.
t.test('the embedded default loads no EventStoreDB, MongoDB or NATS client', async (t) => {
  const dir = tempDir('vendors-');
  t.teardown(() => removeDir(dir));
  const report = join(dir, 'modules.json');
  const preload = join(dir, 'report.js');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));`);
  const service = await startService(join(dir, 'data'), { NODE_OPTIONS: `--require ${preload}` });
  t.equal((await fetch(`${service.baseUrl.replace(/\/v1$/, '')}/readyz`)).status, 200);
  t.equal(await service.stop(), 0);
  const loaded = JSON.parse(readFileSync(report, 'utf8')) as string[];
  const vendor = (name: string) => loaded.some((m) => m.includes(`/node_modules/${name}/`));
  t.strictSame(
    { 'better-sqlite3': vendor('better-sqlite3'), '@eventstore/db-client': vendor('@eventstore/db-client'), mongodb: vendor('mongodb'), nats: vendor('nats') },
    { 'better-sqlite3': true, '@eventstore/db-client': false, mongodb: false, nats: false },
  );
});
