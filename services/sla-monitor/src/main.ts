import './tracing';
import { Application, jsonLogger, LeasedWorker, loadConfigOrExit } from '@support/application';
import { runUntilSignal } from '@support/http/server';
import { SlaMonitor } from './monitor';
import { TicketResponses } from './responses';
import { CATALOG } from '@support/catalog';

/** The SLA monitor alone (scale-out): ticket replies and SLA signals, one active instance at a time (a lease). */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'sla-monitor', instance: config.instanceId });
const app = new Application({ catalog: CATALOG, config, log, projector: false });
const parts = [new TicketResponses(app, log), new SlaMonitor(app, log, config.slaIntervalMs)];
void runUntilSignal(app, { role: 'sla-monitor', workers: [new LeasedWorker(app.leases, 'sla-monitor', config.instanceId, parts, log)] });
