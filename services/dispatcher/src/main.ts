import './tracing';
import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { runUntilSignal } from '@support/http/server';
import { Dispatcher } from './dispatcher';
import { CATALOG } from '@support/catalog';

/** Dispatchers alone (scale-out, any number): competing consumers of the relay's events on NATS. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'dispatcher', instance: config.instanceId });
const app = new Application({ catalog: CATALOG, config, log, projector: false });
const dispatcher = new Dispatcher(app, log, { source: app.engines.bus.durable ? 'bus' : 'log' });
void runUntilSignal(app, { role: 'dispatcher', workers: [dispatcher] });
