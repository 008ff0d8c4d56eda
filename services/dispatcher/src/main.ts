import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { Dispatcher } from './dispatcher';

/** Dispatchers alone (scale-out): competing consumers of the relay's events on NATS. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'dispatcher' });
const app = new Application({ config, log, projector: false });
const dispatcher = new Dispatcher(app, log, { source: config.natsUrl ? 'bus' : 'log', notify: false });
app
  .start()
  .then(() => dispatcher.start())
  .then(
    () => {
      log.info('dispatcher running', { engines: app.engines.describe });
      const stop = (signal: string) => {
        log.info('shutting down', { signal });
        dispatcher
          .stop()
          .then(() => app.stop())
          .then(
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
