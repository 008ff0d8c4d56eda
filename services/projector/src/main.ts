import { Application, jsonLogger, loadConfigOrExit } from '@support/application';

/** The projector alone (scale-out): keeps the read models from the event log. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'projector' });
const app = new Application({ config, log, projector: true });
app.start().then(
  () => {
    log.info('projector running', { engines: app.engines.describe });
    const stop = (signal: string) => {
      log.info('shutting down', { signal });
      app.stop().then(
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
