import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Bus, LazyBus, MemoryBus, NatsBus } from '@support/bus';
import { EsdbEventStore, EventStore, SqliteEventStore } from '@support/eventstore';
import { MongoReadStore, ReadStore, SqliteReadStore } from '@support/readstore';
import { Config } from './config';

export interface Engines {
  events: EventStore;
  reads: ReadStore;
  bus: Bus;
  /** Which engine backs each port, for the start-up log. */
  describe: { events: string; reads: string; bus: string };
  close(): Promise<void>;
}

/** The only place that knows which engines run: everything else sees the ports. */
export const openEngines = (config: Pick<Config, 'dataDir' | 'eventstoreUrl' | 'mongodbUrl' | 'natsUrl'>): Engines => {
  if (!config.eventstoreUrl || !config.mongodbUrl) mkdirSync(config.dataDir, { recursive: true });
  const events = config.eventstoreUrl ? new EsdbEventStore(config.eventstoreUrl) : new SqliteEventStore(join(config.dataDir, 'events.sqlite'));
  const reads = config.mongodbUrl ? new MongoReadStore(config.mongodbUrl) : new SqliteReadStore(join(config.dataDir, 'readstore.sqlite'));
  const natsUrl = config.natsUrl;
  // NatsBus connects asynchronously: LazyBus connects on first use, so this stays synchronous.
  const bus: Bus = natsUrl ? new LazyBus(() => NatsBus.connect(natsUrl), true) : new MemoryBus();
  return {
    events,
    reads,
    bus,
    describe: {
      events: config.eventstoreUrl ? 'eventstoredb' : 'sqlite',
      reads: config.mongodbUrl ? 'mongodb' : 'sqlite',
      bus: natsUrl ? 'nats' : 'memory',
    },
    async close() {
      await bus.close();
      await events.close();
      await reads.close();
    },
  };
};
