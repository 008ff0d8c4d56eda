import t from 'tap';
import { loadConfig } from '@support/application';
import { removeDir, run, ROOT, tempDir } from '../support/service';
import { join } from 'node:path';

t.test('integers are whole numbers written as digits; a bad value names the variable', async (t) => {
  t.equal(loadConfig({ PORT: ' 8081 ' }).port, 8081);
  t.equal(loadConfig({ READ_YOUR_WRITES_TIMEOUT_MS: '' }).readYourWritesTimeoutMs, 5000, 'empty means the default');
  for (const bad of ['80.5', '1e3', '-1', '10ms', 'abc', '99999999999999999999']) {
    t.throws(() => loadConfig({ PORT: bad }), new RegExp(`PORT must be a whole number ≥ 0 \\(got "${bad.replace('.', '\\.')}"\\)`), `PORT=${bad}`);
  }
  t.throws(() => loadConfig({ WEBHOOK_RETRY_BASE_MS: '1.5' }), /WEBHOOK_RETRY_BASE_MS/);
  t.equal(loadConfig({ RATE_LIMIT_SCALE: '0.5' }).rateLimitScale, 0.5, 'a multiplier may be a decimal');
  t.throws(() => loadConfig({ RATE_LIMIT_SCALE: '1e3' }), /RATE_LIMIT_SCALE/);
  t.throws(() => loadConfig({ AGENT_RERANKER: 'on' }), /AGENT_RERANKER must be one of auto, off/);
});

t.test('the service refuses to start on a bad setting, with one JSON line and exit 1', async (t) => {
  const dir = tempDir();
  t.teardown(() => removeDir(dir));
  const r = await run(process.execPath, [join(ROOT, 'services/standalone/dist/main.js')], { DATA_DIR: dir, PORT: '80.5' });
  t.equal(r.code, 1);
  const line = JSON.parse(r.stdout.trim());
  t.match(line, { level: 'error', msg: /invalid configuration/, error: /PORT must be a whole number/ });
  t.equal(r.stderr, '', 'no stack trace');
});
