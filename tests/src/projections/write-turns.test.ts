import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { ROOT } from '../support/service';

// Two threads write by turns through one WriteTurns (the parallel rebuild's workers): each write
// counts itself in and out of a shared cell, and awaits in between, as a bulk write does.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { WriteTurns } = require(workerData.module);
const turns = new WriteTurns(workerData.turns);
const cells = new Int32Array(workerData.cells);
(async () => {
  for (let i = 0; i < 200; i++) {
    await turns.run(async () => {
      if (Atomics.add(cells, 0, 1) !== 0) Atomics.add(cells, 1, 1);
      await new Promise((resolve) => setImmediate(resolve));
      Atomics.sub(cells, 0, 1);
    });
  }
  parentPort.postMessage('done');
})();
`;

t.test('writes take turns across threads: never two at once', async (t) => {
  const turns = new SharedArrayBuffer(4);
  // [writing now, writes that found another one under way]
  const cells = new SharedArrayBuffer(8);
  const module = join(ROOT, 'services/admin/dist/rebuild/write-turns.js');
  const run = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER, { eval: true, workerData: { module, turns, cells } });
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  await Promise.all([run(), run(), run()]);
  t.strictSame([...new Int32Array(cells)], [0, 0]);
});
