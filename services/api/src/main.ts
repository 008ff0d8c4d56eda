import './tracing';
import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { apiOf } from '@support/http';
import { runUntilSignal } from './server';
import { CATALOG } from '@support/catalog';

/**
 * The API alone (scale-out, any number of instances): read models are kept by the projector
 * processes; rate-limit counters and the idempotency cache are shared through the read store.
 */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'api', instance: config.instanceId });
const app = new Application({ catalog: CATALOG, config, log, projector: false });
void runUntilSignal(apiOf(app, { sharedLimits: true }), 'api');
