import { Application, jsonLogger, loadConfig } from '@support/application';
import { runUntilSignal } from '@support/api';

/** `npm start`: API and projector in one process on the embedded engines (or those configured). */
const config = loadConfig();
const log = jsonLogger(config.logLevel, { service: 'standalone' });
runUntilSignal(new Application({ config, log, projector: true }), 'standalone').catch((err) => {
  log.error('failed to start', { error: err instanceof Error ? err.stack : String(err) });
  process.exit(1);
});
