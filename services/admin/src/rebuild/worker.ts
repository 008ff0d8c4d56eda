import { parentPort, workerData } from 'node:worker_threads';
import { jsonLogger, openEngines } from '@support/application';
import { Projector } from '@support/projections';
import type { WorkerTask, WorkerMessage } from './in-workers';
import { takingTurns, WriteTurns } from './write-turns';
import { ALL_PROJECTIONS } from '@support/catalog';

// One group of read models rebuilt in a worker thread, on engines of its own.
const task = workerData as WorkerTask;
const post = (message: WorkerMessage) => parentPort!.postMessage(message);

void (async () => {
  const log = jsonLogger(task.logLevel, { service: 'admin', worker: task.names.join(',') }, (line) => process.stderr.write(line + '\n'));
  const engines = openEngines(task.engines, undefined, log);
  try {
    const projections = ALL_PROJECTIONS.filter((p) => task.names.includes(p.collection.name));
    const store = takingTurns(engines.reads, new WriteTurns(task.turns));
    const result = await new Projector(engines.events, store, projections, log).rebuild((applied) => post({ applied }), { complete: false });
    post({ done: result });
  } finally {
    await engines.close();
  }
})();
