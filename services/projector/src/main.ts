import './tracing';
import { Application, jsonLogger, loadConfigOrExit, ProjectorPool } from '@support/application';
import { runUntilSignal } from '@support/http/server';
import { ALL_PROJECTIONS, CATALOG } from '@support/catalog';

/**
 * The projector alone (scale-out, any number of instances): the read models are leased out
 * among the live instances, each applied by one of them from its own checkpoint.
 */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'projector', instance: config.instanceId });
const app = new Application({ catalog: CATALOG, config, log, projector: false });
const { events, reads } = app.engines;
const pool = new ProjectorPool(
  { events, reads, leases: app.leases, clock: app.clock, log, onCheckpoint: app.signalCheckpoint, setAsideAfter: config.projectionSetAsideAfter },
  ALL_PROJECTIONS,
  config.instanceId,
);
void runUntilSignal(app, { role: 'projector', workers: [pool] });
