import { Application, jsonLogger, loadConfigOrExit } from '@support/application';
import { runUntilSignal } from './server';

/** The API alone (scale-out): read models are kept by a separate projector process. */
const config = loadConfigOrExit();
const log = jsonLogger(config.logLevel, { service: 'api' });
runUntilSignal(new Application({ config, log, projector: false }), 'api').catch((err) => {
  log.error('failed to start', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
