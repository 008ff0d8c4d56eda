import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { Application, Clock, loadConfig, silentLogger } from '@support/application';
import { removeDir, tempDir } from '../../support/service';
import { CATALOG } from '@support/catalog';

// Operator interface: "A verified key is cached for 500 ms, so a revocation or plan change
// applies within a second." The cache runs on the application's clock, injected here.

const setup = async (t: Test) => {
  const dir = tempDir('auth-');
  const time = { now: Date.parse('2026-03-01T12:00:00.000Z') };
  const clock: Clock = { now: () => new Date(time.now) };
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, clock, projector: true });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const admin = { workspaceId: null, actor: 'test', requestId: null };
  const { workspace } = await workspacesOf(app).commands.create(admin, { name: 'Auth' });
  const keyOf = async (expiresAt?: string) => {
    const key = await workspacesOf(app).keys.create(admin, { workspaceId: workspace.id, name: 'k', expiresAt });
    await app.settle(key.position);
    return { ...key, verdict: async () => (await workspacesOf(app).authenticate(key.key))?.keyId ?? null };
  };
  return { app, admin, time, keyOf };
};

t.test('a revoked key keeps working for the 500 ms it is cached, and not a millisecond longer', async (t) => {
  const { app, admin, time, keyOf } = await setup(t);
  const key = await keyOf();
  t.equal(await key.verdict(), key.id, 'verified, and cached from now');
  await app.settle((await workspacesOf(app).keys.revoke(admin, key.id)).position);
  t.equal(await key.verdict(), key.id, 'the read model says revoked, the cache does not know yet');
  time.now += 499;
  t.equal(await key.verdict(), key.id, 'still cached after 499 ms');
  time.now += 1;
  t.equal(await key.verdict(), null, 'refused once the 500 ms have passed');
  time.now += 10_000;
  t.equal(await key.verdict(), null, 'and from then on');
});

t.test('an expiring key is refused at its expiry, even while cached', async (t) => {
  const { time, keyOf } = await setup(t);
  const key = await keyOf(new Date(time.now + 200).toISOString());
  t.equal(await key.verdict(), key.id);
  time.now += 199;
  t.equal(await key.verdict(), key.id, 'cached and not yet expired');
  time.now += 1;
  t.equal(await key.verdict(), null, 'expired, though still in the cache');
});

t.test('while a key is cached, a token naming it with another secret is refused', async (t) => {
  const { keyOf, app } = await setup(t);
  const key = await keyOf();
  t.equal(await key.verdict(), key.id, 'verified, and cached from now');
  const secret = key.key.slice(key.key.lastIndexOf('_') + 1);
  const forged = key.key.slice(0, key.key.length - secret.length) + (secret[0] === 'A' ? 'B' : 'A') + secret.slice(1);
  t.equal(await workspacesOf(app).authenticate(forged), null, 'same key id, one character of the secret changed');
  t.equal(await workspacesOf(app).authenticate(`${key.key}x`), null, 'a longer token');
  t.equal(await key.verdict(), key.id, 'the real key is still accepted');
});
