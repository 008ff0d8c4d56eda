import { createHash } from 'node:crypto';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { admin, adminJson, readStoreOnMongo, removeDir, startService, tempDir, type Service } from '../support/service';
import { tenant } from '../support/workspace';
import { client } from '../support/client';

/**
 * The backup drill on the embedded default: writes acknowledged, a backup taken while a writer
 * keeps writing, the data folder wiped, the backup restored, the read models rebuilt, and every
 * write acknowledged before the backup answers as it did; one made during it is whole or absent.
 */
const skip = readStoreOnMongo() ? 'the backup command copies the embedded default; this run keeps read models on MongoDB' : false;

/** A service on a data folder of its own, and a folder for its backups; stopped and removed after the test. */
const withService = async (t: Test, name: string) => {
  const dir = tempDir(`${name}-`);
  const started = await startService(dir);
  // `svc` is the one running now (null while stopped): the teardown stops whichever it is.
  const run: { dir: string; backups: string; svc: Service | null; started: Service } = { dir, backups: tempDir(`${name}-to-`), svc: started, started };
  t.teardown(async () => {
    await run.svc?.stop();
    removeDir(run.dir);
    removeDir(run.backups);
  });
  return run;
};

t.test('write, back up while writing, wipe, restore, rebuild: every acknowledged write is there, the same', { skip }, async (t) => {
  const run = await withService(t, 'backup');
  const { dir, backups } = run;
  const ws = await tenant(run.started.baseUrl, dir);
  const before: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) {
    const c = await ws.api.post('/customers', { email: `before-${i}@example.com`, name: `Before ${i}` });
    t.equal(c.status, 201);
    before[c.body.id] = c.body;
  }
  const conversation = (await ws.api.post('/conversations', { customer: { email: 'before-0@example.com' } })).body;
  const message = (await ws.api.post(`/conversations/${conversation.id}/messages`, { content: 'Kept through a restore' })).body;
  // As they answer now (the conversation counted on its customer).
  for (const id of Object.keys(before)) before[id] = (await ws.api.get(`/customers/${id}`)).body;

  // A writer that keeps writing while the backup runs.
  const during: Record<string, unknown> = {};
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const c = await ws.api.post('/customers', { email: `during-${i}@example.com` });
      if (c.status === 201) during[c.body.id] = c.body;
    }
  })();
  const to = join(backups, 'b1');
  const backup = await adminJson<{ files: { name: string; bytes: number }[]; events: number; to: string }>(dir, 'backup', '--to', to);
  writing = false;
  await writer;
  t.strictSame(
    backup.files.map((f) => f.name),
    ['readstore.sqlite', 'events.sqlite'],
  );
  t.ok(Object.keys(during).length > 0, `${Object.keys(during).length} writes acknowledged while it ran`);
  t.strictSame(readdirSync(to).sort(), ['backup.json', 'events.sqlite', 'readstore.sqlite']);
  t.strictSame(
    [to, ...readdirSync(to).map((f) => join(to, f))].map((f) => (statSync(f).mode & 0o777).toString(8)),
    ['700', '600', '600', '600'],
    'readable by its owner only: it holds customers, signing secrets and tokens',
  );
  const refused = await admin(dir, 'backup', '--to', to);
  t.strictSame(
    [refused.code, /not empty/.test(refused.stderr), /usage:/.test(refused.stderr)],
    [1, true, false],
    'never into a folder that holds something: refused, not a usage error',
  );

  // Lost: the service stops and its data folder is wiped.
  await run.started.stop();
  run.svc = null;
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });

  // A damaged copy is refused before anything is written.
  const damaged = join(backups, 'damaged');
  cpSync(to, damaged, { recursive: true });
  const file = join(damaged, 'events.sqlite');
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, Math.floor(statSync(file).size / 2 / 4096) * 4096);
  closeSync(fd);
  const bad = await admin(dir, 'restore', '--from', damaged);
  t.equal(bad.code, 1, 'a damaged backup fails');
  t.match(bad.stderr, /sha256|integrity check|holds \d+ events|malformed|not a database/);
  t.notOk(existsSync(join(dir, 'events.sqlite')), 'and nothing was restored');

  // A read store left alone in the folder is not overwritten unasked either
  writeFileSync(join(dir, 'readstore.sqlite'), 'left over');
  const leftOver = await admin(dir, 'restore', '--from', to);
  t.strictSame([leftOver.code, /already holds readstore\.sqlite: .*--replace/.test(leftOver.stderr)], [1, true], leftOver.stderr);
  rmSync(join(dir, 'readstore.sqlite'));
  const restored = await adminJson<{ events: number }>(dir, 'restore', '--from', to);
  t.equal(restored.events, backup.events);
  const again = await admin(dir, 'restore', '--from', to);
  t.strictSame([again.code, /--replace/.test(again.stderr)], [1, true], 'an existing log is replaced only with --replace');
  const replaced = await admin(dir, 'restore', '--from', to, '--replace');
  t.strictSame(
    [replaced.code, new RegExp(`replacing .*'s log of ${backup.events} events with the backup's ${backup.events}`).test(replaced.stderr)],
    [0, true],
    replaced.stderr,
  );

  // Restarted on the restored files as they are: the read models resume from their copied
  // checkpoints, which never pass the copied log (the read store is copied first).
  run.svc = await startService(dir);
  let api = client(run.svc.baseUrl, ws.key);
  const check = async (when: string) => {
    for (const [id, body] of Object.entries(before)) t.strictSame((await api.get(`/customers/${id}`)).body, body, `${when}: customer ${id}`);
    t.strictSame((await api.get(`/conversations/${conversation.id}/messages`)).body.data, [message], `${when}: the conversation and its message`);
    let kept = 0;
    for (const [id, body] of Object.entries(during)) {
      const r = await api.get(`/customers/${id}`);
      if (r.status === 200) {
        t.strictSame(r.body, body, `${when}: customer ${id}, written during the backup, whole`);
        kept += 1;
      } else t.equal(r.status, 404, `${when}: customer ${id}, written during the backup, absent`);
    }
    return kept;
  };
  const kept = await check('restored');
  t.comment(`${kept} of ${Object.keys(during).length} writes made during the backup are in it`);
  const created = await api.post('/customers', { email: 'after-restore@example.com' });
  t.equal(created.status, 201, 'the restored service takes writes, and reads them back');
  // Read models rebuilt from the restored log (the service stopped meanwhile, as the CLI asks) answer the same.
  await run.svc.stop();
  run.svc = null;
  await adminJson(dir, 'projections', 'rebuild');
  run.svc = await startService(dir);
  api = client(run.svc.baseUrl, ws.key);
  t.equal(await check('rebuilt'), kept);
  t.strictSame((await api.get(`/customers/${created.body.id}`)).body, created.body);
});

t.test('backup and restore refuse what they cannot do: a malformed command with the usage (exit 2), a refusal alone (exit 1)', async (t) => {
  const dir = tempDir('backup-usage-');
  t.teardown(() => removeDir(dir));
  const noTo = await admin(dir, 'backup');
  t.strictSame([noTo.code, /--to is required/.test(noTo.stderr)], [2, true]);
  const notBackup = await admin(dir, 'restore', '--from', dir);
  t.strictSame([notBackup.code, /not a backup/.test(notBackup.stderr), /usage:/.test(notBackup.stderr)], [1, true, false]);
  const aFile = join(dir, 'a-file');
  writeFileSync(aFile, 'x');
  const intoFile = await admin(dir, 'backup', '--to', aFile);
  t.strictSame(
    [intoFile.code, intoFile.stderr.trim()],
    [1, `error: --to ${aFile} is a file: back up into a new folder`],
    'a file named as the folder: one line, no stack',
  );
  // A manifest that names a file elsewhere is refused before anything is read or written.
  writeFileSync(
    join(dir, 'backup.json'),
    JSON.stringify({
      format: 1,
      files: [
        { name: '../escape.sqlite', bytes: 1 },
        { name: 'events.sqlite', bytes: 1 },
      ],
      events: 0,
    }),
  );
  const tampered = await admin(dir, 'restore', '--from', dir);
  t.strictSame([tampered.code, /must name exactly events\.sqlite and readstore\.sqlite/.test(tampered.stderr)], [1, true]);
});

t.test('restore refuses a live data folder, files not of the backup, a newer version; backup refuses a missing log', { skip }, async (t) => {
  const run = await withService(t, 'backup-live');
  const { dir, backups } = run;
  const ws = await tenant(run.started.baseUrl, dir);
  const early = join(backups, 'early');
  await adminJson(dir, 'backup', '--to', early);
  for (let i = 0; i < 30; i++) t.equal((await ws.api.post('/customers', { email: `later-${i}@example.com` })).status, 201);
  const later = join(backups, 'later');
  await adminJson(dir, 'backup', '--to', later);

  // Onto the running service: its open files would be replaced under it, and what it writes next lost.
  const live = await admin(dir, 'restore', '--from', early, '--replace');
  t.strictSame([live.code, /open in another process/.test(live.stderr)], [1, true], `refused while the service runs: ${live.stderr}`);
  const kept = await ws.api.post('/customers', { email: 'after-refusal@example.com' });
  t.equal(kept.status, 201);
  await run.started.stop();
  run.svc = await startService(dir);
  t.equal((await client(run.svc.baseUrl, ws.key).get(`/customers/${kept.body.id}`)).status, 200, 'nothing was replaced: the write is still there');
  await run.svc.stop();
  run.svc = null;

  // A read store from another backup, in place of this one's.
  const mixed = join(backups, 'mixed');
  cpSync(early, mixed, { recursive: true });
  cpSync(join(later, 'readstore.sqlite'), join(mixed, 'readstore.sqlite'));
  const swapped = await admin(dir, 'restore', '--from', mixed, '--replace');
  t.strictSame([swapped.code, /readstore\.sqlite .*(bytes|sha256)/.test(swapped.stderr)], [1, true], `a swapped file is refused: ${swapped.stderr}`);
  // The same, in a backup made before manifests held checksums, its size edited to match: the
  // read store's checkpoints lie beyond the log.
  const manifestOf = (d: string) => JSON.parse(readFileSync(join(d, 'backup.json'), 'utf8'));
  const old = manifestOf(mixed);
  old.files = old.files.map((f: { name: string; bytes: number }) => ({ name: f.name, bytes: statSync(join(mixed, f.name)).size }));
  writeFileSync(join(mixed, 'backup.json'), JSON.stringify(old));
  const behind = await admin(dir, 'restore', '--from', mixed, '--replace');
  t.strictSame([behind.code, /checkpoints .* lie beyond its log/.test(behind.stderr)], [1, true], `a log behind its read store is refused: ${behind.stderr}`);

  // A log whose pages SQLite finds wrong (a dozen pages no table uses, its manifest made to
  // match): refused in a few words, not SQLite's page-by-page list.
  const padded = join(backups, 'padded');
  cpSync(early, padded, { recursive: true });
  const log = join(padded, 'events.sqlite');
  const bytes = readFileSync(log);
  bytes.writeUInt32BE(bytes.readUInt32BE(28) + 12, 28);
  writeFileSync(log, Buffer.concat([bytes, Buffer.alloc(bytes.readUInt16BE(16) * 12)]));
  const rehashed = manifestOf(padded);
  rehashed.files = rehashed.files.map((f: { name: string }) =>
    f.name === 'events.sqlite' ? { name: f.name, bytes: statSync(log).size, sha256: createHash('sha256').update(readFileSync(log)).digest('hex') } : f,
  );
  writeFileSync(join(padded, 'backup.json'), JSON.stringify(rehashed));
  const unused = await admin(dir, 'restore', '--from', padded, '--replace');
  const said = unused.stderr.trim().split('\n').pop()!;
  t.strictSame(
    [
      unused.code,
      /^error: events\.sqlite in .* fails SQLite's integrity check: \*\*\* in database main \*\*\* \/ Page \d+: never used \/ Page \d+: never used \(and 10 more lines\)$/.test(
        said,
      ),
    ],
    [1, true],
    said,
  );

  const newer = join(backups, 'newer');
  cpSync(early, newer, { recursive: true });
  writeFileSync(join(newer, 'backup.json'), JSON.stringify({ ...manifestOf(early), api_version: '9.0.0' }));
  const future = await admin(dir, 'restore', '--from', newer, '--replace');
  t.strictSame([future.code, /made by version 9\.0\.0, newer than this one/.test(future.stderr)], [1, true], future.stderr);
  // A copy that fails part-way (the log's, after the read store's: its place beside the target is taken) leaves the folder as it was.
  const sha = (f: string) =>
    createHash('sha256')
      .update(readFileSync(join(dir, f)))
      .digest('hex');
  const before = ['events.sqlite', 'readstore.sqlite'].map(sha);
  mkdirSync(join(dir, 'events.sqlite.restoring'));
  const cut = await admin(dir, 'restore', '--from', later, '--replace');
  t.strictSame(
    [cut.code, /copying events\.sqlite into .* failed .*nothing was restored/.test(cut.stderr)],
    [1, true],
    `a failed copy is reported: ${cut.stderr}`,
  );
  t.strictSame(['events.sqlite', 'readstore.sqlite'].map(sha), before, 'neither file was replaced');
  t.notOk(existsSync(join(dir, 'readstore.sqlite.restoring')), 'the read store copied before the failure is removed');
  rmSync(join(dir, 'events.sqlite.restoring'), { recursive: true });
  // A damaged log in the data folder is what a restore is for: it is not taken for a file in use.
  writeFileSync(join(dir, 'events.sqlite'), 'not a database');
  t.equal((await admin(dir, 'restore', '--from', later, '--replace')).code, 0, 'the real backup still restores, over a damaged log');

  // A mistyped DATA_DIR: no empty log is made and backed up as if it were the data.
  const missing = join(backups, 'no-such-data');
  const none = await admin(missing, 'backup', '--to', join(backups, 'of-nothing'));
  t.strictSame([none.code, /holds no log to back up/.test(none.stderr)], [1, true], none.stderr);
  t.notOk(existsSync(missing), 'the mistyped folder is not created');
  t.notOk(existsSync(join(backups, 'of-nothing')), 'nor a backup of nothing');
});
