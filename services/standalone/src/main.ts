import './tracing';
import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { runUntilSignal } from '@support/api';
import { Dispatcher } from '@support/dispatcher';
import { apiOf } from '@support/http';
import { configuredNotifier, Relay } from '@support/relay';
import { SlaMonitor, TicketResponses } from '@support/sla-monitor';
import { CATALOG } from '@support/catalog';

/**
 * `npm start`: API, projector, webhook dispatcher and SLA monitor in one process, on the
 * embedded engines (or those configured). Without NATS the dispatcher reads the log itself: the
 * in-process bus keeps no history, and this keeps intake durable. With NATS_URL the relay
 * publishes the log to JetStream and the dispatcher consumes it, as the scale-out does.
 */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'standalone' });
const app = new Application({ catalog: CATALOG, config, log, projector: true });
// A bus that keeps history (NATS JetStream) carries the relay's events to the dispatcher; the
// in-process one keeps none, so then the dispatcher reads the log itself.
const viaBus = app.engines.bus.durable;
const child = (component: string) => log.child({ component });
const workers = [
  ...(viaBus ? [new Relay(app.engines.events, app.engines.reads, app.engines.bus, child('relay'))] : []),
  new Dispatcher(app, child('dispatcher'), { source: viaBus ? 'bus' : 'log' }),
  // Its lines keep the component they had when the dispatcher ran it (operators' filters).
  configuredNotifier(app, child('dispatcher')),
  new TicketResponses(app, child('ticket-responses')),
  new SlaMonitor(app, child('sla-monitor'), config.slaIntervalMs),
];
void runUntilSignal(apiOf(app), 'standalone', workers);
