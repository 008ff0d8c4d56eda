import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Bus, LazyBus } from '@support/bus';
import type { EventStore } from '@support/eventstore';
import type { Logger } from '@support/kernel';
import type { ReadStore } from '@support/readstore';
import { Config } from './config';

// Each adapter is loaded only when configured, so a process never loads a vendor client it
// does not use (the embedded default loads neither the EventStoreDB, MongoDB nor NATS client).
/* eslint-disable @typescript-eslint/no-require-imports */
const adapters = {
  sqliteEvents: () => (require('@support/eventstore/sqlite') as typeof import('@support/eventstore/sqlite')).SqliteEventStore,
  esdb: () => (require('@support/eventstore/esdb') as typeof import('@support/eventstore/esdb')).EsdbEventStore,
  sqliteReads: () => (require('@support/readstore/sqlite') as typeof import('@support/readstore/sqlite')).SqliteReadStore,
  mongo: () => (require('@support/readstore/mongo') as typeof import('@support/readstore/mongo')).MongoReadStore,
  memoryBus: () => (require('@support/bus/memory') as typeof import('@support/bus/memory')).MemoryBus,
  nats: () => (require('@support/bus/nats') as typeof import('@support/bus/nats')).NatsBus,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The embedded default's files in $DATA_DIR. */
export const EMBEDDED_FILES = { events: 'events.sqlite', reads: 'readstore.sqlite' } as const;

export interface Engines {
  events: EventStore;
  reads: ReadStore;
  bus: Bus;
  /** Which engine backs each port, for the start-up log. */
  describe: { events: string; reads: string; bus: string };
  /**
   * The embedded default only: consistent copies of the read store, then of the log, into
   * `dir` (read models first, so their checkpoints never pass the copied log: on restore they
   * catch up from there). Other engines are backed up with their own tools (docs/operating/backup.md).
   */
  snapshot?: (dir: string, step: (file: string) => void) => Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The only place that knows which engines run: everything else sees the ports. `eventTypes`:
 * what a subscription to a shared log (EventStoreDB's `$all`) asks for (@support/catalog's
 * EVENT_TYPES); without them, every event but the engine's own.
 */
export const openEngines = (
  config: Pick<Config, 'dataDir' | 'eventstoreUrl' | 'mongodbUrl' | 'natsUrl'>,
  eventTypes?: readonly string[],
  log: Pick<Logger, 'warn'> | null = null,
): Engines => {
  if (!config.eventstoreUrl || !config.mongodbUrl) mkdirSync(config.dataDir, { recursive: true });
  const sqliteEvents = config.eventstoreUrl ? null : new (adapters.sqliteEvents())(join(config.dataDir, EMBEDDED_FILES.events));
  const sqliteReads = config.mongodbUrl ? null : new (adapters.sqliteReads())(join(config.dataDir, EMBEDDED_FILES.reads));
  const events: EventStore = sqliteEvents ?? new (adapters.esdb())(config.eventstoreUrl!, { eventTypes });
  const reads: ReadStore = sqliteReads ?? new (adapters.mongo())(config.mongodbUrl!, undefined, log);
  const natsUrl = config.natsUrl;
  // NatsBus connects asynchronously: LazyBus connects on first use, so this stays synchronous.
  const bus: Bus = natsUrl ? new LazyBus(() => adapters.nats().connect(natsUrl), true, true) : new (adapters.memoryBus())();
  return {
    events,
    reads,
    bus,
    describe: {
      events: config.eventstoreUrl ? 'eventstoredb' : 'sqlite',
      reads: config.mongodbUrl ? 'mongodb' : 'sqlite',
      bus: natsUrl ? 'nats' : 'memory',
    },
    ...(sqliteEvents && sqliteReads
      ? {
          async snapshot(dir: string, step: (file: string) => void) {
            step(EMBEDDED_FILES.reads);
            await sqliteReads.snapshotTo(join(dir, EMBEDDED_FILES.reads));
            step(EMBEDDED_FILES.events);
            await sqliteEvents.snapshotTo(join(dir, EMBEDDED_FILES.events));
            return [EMBEDDED_FILES.reads, EMBEDDED_FILES.events];
          },
        }
      : {}),
    async close() {
      await bus.close();
      await events.close();
      await reads.close();
    },
  };
};
