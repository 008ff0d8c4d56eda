import { availableParallelism } from 'node:os';
import type { Application } from '@support/application';
import { CHECKPOINT, partitionProjections, Projector } from '@support/projections';
import { adminLogLevel, flags, Output, UsageError, wholeNumber } from '../cli';
import { rebuildInWorkers } from '../rebuild/in-workers';
import { listSetAside, retrySetAside, skipSetAside } from './set-aside';
import { ALL_PROJECTIONS } from '@support/catalog';

/**
 * Unless `--workers` says otherwise, worker threads only from a log this long: each costs a
 * start (its modules and its engines). On a log of 50,000 customer events, all of it one
 * group's work, two workers took 1.5–1.7 s against 1.3–1.4 s in one thread; on 1M mixed events
 * they take three quarters of the time. Where the log cannot be counted, one thread.
 */
const PARALLEL_FROM_EVENTS = 200_000;

export const projectionsCommand = async (app: Application, out: Output, [sub, ...args]: string[]) => {
  if (sub === 'set-aside') return listSetAside(app, out, args);
  if (sub === 'retry') return retrySetAside(app, out, args);
  if (sub === 'skip') return skipSetAside(app, out, args);
  if (sub !== 'rebuild') throw new UsageError('projections commands: rebuild, set-aside, retry, skip');
  const v = flags(args, { name: 'string', workers: 'string' });
  const names = ALL_PROJECTIONS.map((p) => p.collection.name);
  const chosen = typeof v.name === 'string' ? ALL_PROJECTIONS.filter((p) => p.collection.name === v.name) : ALL_PROJECTIONS;
  if (chosen.length === 0) throw new UsageError(`unknown projection "${v.name}"; known: ${names.join(', ')}`);
  const requested = wholeNumber(v.workers, 'workers', 1);
  const complete = chosen.length === ALL_PROJECTIONS.length;
  const started = Date.now();
  let last = started;
  const onProgress = (applied: number) => {
    if (Date.now() - last >= 1000) {
      out.progress(`${applied} events applied…`);
      last = Date.now();
    }
  };
  // Read models are independent of each other: groups of them are rebuilt in parallel, one
  // worker thread each, balanced by the log's count of the event types each one handles.
  const counts = await app.engines.events.countByType();
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null;
  const workers = requested ?? (total !== null && total >= PARALLEL_FROM_EVENTS ? availableParallelism() : 1);
  const groups = partitionProjections(chosen, workers, counts);
  out.progress(`rebuilding ${chosen.length === 1 ? chosen[0].collection.name : `${chosen.length} read models`} from ${total ?? 'the'} events…`);
  // What is reported: the events in the log, or where the engine cannot count them, the most
  // events a worker read (each reads only the types its read models handle).
  let read: number;
  if (groups.length === 1) {
    ({ events: read } = await new Projector(app.engines.events, app.engines.reads, chosen, app.log).rebuild(onProgress, { complete }));
  } else {
    out.progress(`rebuilding in ${groups.length} workers: ${groups.map((g) => g.map((p) => p.collection.name).join(', ')).join(' | ')}`);
    const result = await rebuildInWorkers(
      groups.map((g) => g.map((p) => p.collection.name)),
      { dataDir: app.config.dataDir, eventstoreUrl: app.config.eventstoreUrl, mongodbUrl: app.config.mongodbUrl, natsUrl: app.config.natsUrl },
      adminLogLevel(),
      onProgress,
    );
    read = result.events;
    // Each worker moved its own read models' checkpoints; the all-models projector's may move
    // once every read model is rebuilt, to where the earliest worker stopped.
    if (complete && result.position !== null) await app.engines.reads.setCheckpoint(CHECKPOINT, result.position);
  }
  const events = total ?? read;
  out.result({ projections: chosen.map((p) => p.collection.name), events, ms: Date.now() - started });
};
