import type { Application, Worker } from '@support/application';
import { runUntilSignal as run, serve, type RunningServer } from '@support/http';
import { createHttpApp } from './http-app';

/** The API with `workers` beside it (standalone: projector, dispatcher, monitors), on the configured port. */
export const listen = (app: Application, workers: readonly Worker[] = [], role = 'api'): Promise<RunningServer> =>
  serve(app, { role, workers, api: (probes) => createHttpApp(app, probes, role) });

/** Runs the API (and `workers`) until SIGTERM or SIGINT, then drains and exits 0 (operator interface). */
export const runUntilSignal = (app: Application, role: string, workers: readonly Worker[] = []): Promise<void> =>
  run(app, { role, workers, api: (probes) => createHttpApp(app, probes, role) });
