import { agentOf } from '@support/agent';
import type { Worker } from '@support/application';
import type { Api } from '@support/http';
import { runUntilSignal as run, serve, type RunningServer } from '@support/http/server';
import { createHttpApp } from './http-app';

/** The agent first: its knowledge index is rebuilt from the log before the first request is served. */
const withAgent = (api: Api, workers: readonly Worker[]) => [agentOf(api.app), ...workers];

/** The API with `workers` beside it (standalone: projector, dispatcher, monitors), on the configured port. */
export const listen = (api: Api, workers: readonly Worker[] = [], role = 'api'): Promise<RunningServer> =>
  serve(api.app, { role, workers: withAgent(api, workers), api: (probes) => createHttpApp(api, probes, role) });

/** Runs the API (and `workers`) until SIGTERM or SIGINT, then drains and exits 0 (operator interface). */
export const runUntilSignal = (api: Api, role: string, workers: readonly Worker[] = []): Promise<void> =>
  run(api.app, { role, workers: withAgent(api, workers), api: (probes) => createHttpApp(api, probes, role) });
