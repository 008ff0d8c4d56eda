import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { SlaMonitor } from './monitor';
import { TicketResponses } from './responses';

/** The SLA monitor alone (scale-out; one instance): ticket replies and SLA signals. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'sla-monitor' });
const app = new Application({ config, log, projector: false });
const parts = [new TicketResponses(app, log), new SlaMonitor(app, log, config.slaIntervalMs)];
(async () => {
  for (const p of parts) await p.start();
})().then(
  () => {
    log.info('sla monitor running', { engines: app.engines.describe });
    const stop = (signal: string) => {
      log.info('shutting down', { signal });
      (async () => {
        for (const p of parts) await p.stop();
        await app.stop();
      })().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  },
  (err) => {
    log.error('failed to start', { error: err instanceof Error ? err.stack : String(err) });
    process.exit(1);
  },
);
