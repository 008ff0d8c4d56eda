import { Application, jsonLogger, loadConfig } from '@support/application';
import { runUntilSignal } from '@support/api';
import { Dispatcher } from '@support/dispatcher';
import { SlaMonitor, TicketResponses } from '@support/sla-monitor';

/**
 * `npm start`: API, projector, webhook dispatcher and SLA monitor in one process, on the embedded engines
 * (or those configured). The dispatcher reads the log directly: the in-process stand-in for
 * relay + bus, durable because its checkpoint follows what it has recorded.
 */
const config = loadConfig();
const log = jsonLogger(config.logLevel, { service: 'standalone' });
const app = new Application({ config, log, projector: true });
const dispatcher = new Dispatcher(app, log.child({ component: 'dispatcher' }), { source: 'log', notify: true });
const workers = [dispatcher, new TicketResponses(app, log.child({ component: 'ticket-responses' })), new SlaMonitor(app, log.child({ component: 'sla-monitor' }), config.slaIntervalMs)];
runUntilSignal(app, 'standalone', workers).catch((err) => {
  log.error('failed to start', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
