import './tracing';
import { Application, jsonLogger, LeasedWorker, loadConfigOrExit } from '@support/application';
import { runUntilSignal } from '@support/http/server';
import { configuredNotifier } from './notifier';
import { Relay } from './relay';
import { CATALOG } from '@support/catalog';

/**
 * The relay: the log to NATS, in order; it also mails workspace notices. One instance is
 * active at a time (a lease); more stand by and take over when it dies.
 */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'relay', instance: config.instanceId });
const app = new Application({ catalog: CATALOG, config, log, projector: false });
const relay = new Relay(app.engines.events, app.engines.reads, app.engines.bus, log);
const active = new LeasedWorker(app.leases, 'relay', config.instanceId, [relay, configuredNotifier(app, log)], log);
void runUntilSignal(app, { role: 'relay', workers: [active] });
