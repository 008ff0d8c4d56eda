import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { admin, removeDir, startService, tempDir } from '../support/service';
import { until } from '../support/wait';

/** A log kept without its read store: the consumers that send webhooks and notices say they start from the log's first event. */
const warned = (output: readonly string[]) =>
  output
    .filter((line) => line.includes('log consumer has no checkpoint'))
    .map((line) => (JSON.parse(line) as { consumer: string }).consumer)
    .sort();

t.test('a consumer with no checkpoint on a log that holds events warns; a first start and a restart do not', async (t) => {
  const dir = tempDir();
  const lost = tempDir();
  t.teardown(() => {
    removeDir(dir);
    removeDir(lost);
  });
  // Given a first start on an empty folder, and history written while it runs
  const first = await startService(dir);
  const positions = async () =>
    ((await (await fetch(`${new URL(first.baseUrl).origin}/healthz`)).json()) as { consumers: { position: string }[] }).consumers.map((c) => c.position);
  const before = await positions();
  t.equal((await admin(dir, 'workspace', 'create', '--name', 'Kept')).code, 0);
  // (each consumer has handled the new event, so has a checkpoint, before it stops)
  await until(async () => (await positions()).every((p, i) => p !== before[i]), 10_000, 20, 'the consumers caught up');
  await first.stop();
  t.strictSame(warned(first.output), [], 'a first start: nothing to warn about');
  // When it restarts on its own files
  const again = await startService(dir);
  await again.stop();
  t.strictSame(warned(again.output), [], 'a restart resumes from its checkpoints');
  // When only the log is kept (the read store lost) and a service starts on it
  copyFileSync(join(dir, 'events.sqlite'), join(lost, 'events.sqlite'));
  const onLog = await startService(lost);
  await until(() => warned(onLog.output).length >= 3, 5000, 20, 'the warnings');
  await onLog.stop();
  // Then the webhook and notice consumers say so
  t.strictSame(warned(onLog.output), ['dispatcher', 'notifier', 'ticket-responses']);
});
