import { join } from 'node:path';
import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { Notifier } from '@support/dispatcher';
import { createMailer } from '@support/webhooks';
import { Relay } from './relay';

/** The relay (one instance): the log to NATS, in order; it also mails workspace notices. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'relay' });
const app = new Application({ config, log, projector: false });
const relay = new Relay(app.engines.events, app.engines.reads, app.engines.bus, log);
const notifier = new Notifier(app, createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox') }), log);
relay
  .start()
  .then(() => notifier.start())
  .then(
    () => {
      log.info('relay running', { engines: app.engines.describe });
      const stop = (signal: string) => {
        log.info('shutting down', { signal });
        relay
          .stop()
          .then(() => notifier.stop())
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
