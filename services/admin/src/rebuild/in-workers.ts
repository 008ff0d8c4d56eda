import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Config } from '@support/application';
import { comparePositions, parsePosition } from '@support/eventstore';

type EngineConfig = Pick<Config, 'dataDir' | 'eventstoreUrl' | 'mongodbUrl' | 'natsUrl'>;

export interface WorkerTask {
  names: string[];
  engines: EngineConfig;
  logLevel: string;
  turns: SharedArrayBuffer;
}

export type WorkerMessage = { applied: number } | { done: { events: number; ms: number; position: string | null } };

/**
 * Rebuilds each group of read models in a worker thread of its own, all at once, their bulk
 * writes taking turns (WriteTurns). Each worker reads the events of the types its read models
 * handle and moves their checkpoints; `onProgress` gets the events the workers have applied
 * so far, in all (an event handled by two groups counts twice). Resolves with the most events
 * a worker read and the earliest position a worker stopped at (null: the log was empty). A
 * worker's failure stops the others and rejects.
 */
export const rebuildInWorkers = async (
  groups: readonly string[][],
  engines: EngineConfig,
  logLevel: string,
  onProgress?: (applied: number) => void,
): Promise<{ events: number; position: string | null }> => {
  const turns = new SharedArrayBuffer(4);
  const applied = groups.map(() => 0);
  const workers = groups.map((names) => new Worker(join(__dirname, 'worker.js'), { workerData: { names, engines, logLevel, turns } satisfies WorkerTask }));
  const results = workers.map(
    (worker, i) =>
      new Promise<{ events: number; position: string | null }>((resolve, reject) => {
        let done: { events: number; position: string | null } | null = null;
        worker.on('message', (m: WorkerMessage) => {
          if ('done' in m) done = m.done;
          else {
            applied[i] = m.applied;
            onProgress?.(applied.reduce((a, b) => a + b, 0));
          }
        });
        worker.on('error', reject);
        worker.on('exit', (code) => (done ? resolve(done) : reject(new Error(`rebuild worker for ${groups[i].join(', ')} exited with code ${code}`))));
      }),
  );
  try {
    const all = await Promise.all(results);
    const positions = all.map((r) => r.position).filter((p): p is string => p !== null);
    const earliest = positions.length ? positions.reduce((a, b) => (comparePositions(parsePosition(a), parsePosition(b)) <= 0 ? a : b)) : null;
    return { events: Math.max(...all.map((r) => r.events)), position: earliest };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
};
