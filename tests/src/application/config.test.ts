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

t.test('switches, the log level and CIDRs take only their documented forms: a typo stops the start instead of meaning "off"', async (t) => {
  t.strictSame(
    [loadConfig({ TRUST_PROXY: 'true' }).trustProxy, loadConfig({ TRUST_PROXY: 'false' }).trustProxy, loadConfig({}).trustProxy],
    [true, false, false],
  );
  for (const name of ['TRUST_PROXY', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'VALIDATE_RESPONSES'])
    for (const bad of ['yes', '1', 'TRUE', 'on'])
      t.throws(() => loadConfig({ [name]: bad }), new RegExp(`${name} must be true or false \\(got "${bad}"\\)`), `${name}=${bad}`);
  t.equal(loadConfig({ LOG_LEVEL: 'warn' }).logLevel, 'warn');
  t.throws(() => loadConfig({ LOG_LEVEL: 'verbose' }), /LOG_LEVEL must be one of debug, info, warn, error \(got "verbose"\)/);
  t.strictSame(loadConfig({ WEBHOOK_ALLOWED_CIDRS: ' 10.1.0.0/16, fd00::/8 ,192.0.2.7/32' }).webhooks.allowedCidrs, [
    '10.1.0.0/16',
    'fd00::/8',
    '192.0.2.7/32',
  ]);
  for (const bad of ['notacidr', '10.1.0.0', '10.1.0.0/33', 'fd00::/129', '10.1.0.0/16/2', '10.1.0/16', '10.1.0.0/x'])
    t.throws(
      () => loadConfig({ WEBHOOK_ALLOWED_CIDRS: `10.0.0.0/8,${bad}` }),
      new RegExp(`WEBHOOK_ALLOWED_CIDRS: "${bad.replace(/[./]/g, '\\$&')}" is not a CIDR`),
      bad,
    );
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
