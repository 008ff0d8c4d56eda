import type { Application } from '@support/application';
import { parsePosition } from '@support/eventstore';
import { API_VERSION } from '../version';
import type { Probes } from './health';

/** Past this many events behind, `support_consumer_lag_events` says this many (its seconds say how far). */
export const LAG_EVENTS_CAP = 1000;

/**
 * The series GET /metrics takes from the process's probes at each scrape: each consumer's
 * position, lag (seconds and events), failures and set-aside events, the leases held, and its role.
 */
export const registerProbeMetrics = (app: Application, probes: Probes, role: string): void => {
  const m = app.metrics;
  // Which process this is: lets a rule tell a scale-out (where a relay must hold its lease) from the embedded default (which runs none).
  m.gauge(
    'support_instance_info',
    'Always 1; `role` is the process: standalone (the embedded default), api, projector, relay, dispatcher, sla-monitor; `version` the release it runs',
    ['role', 'version'],
    (g) => {
      g.set({ role, version: API_VERSION }, 1);
    },
  );
  const consumers = () => probes.consumers();
  m.gauge('support_consumer_up', '1 while the consumer runs, 0 while it retries after an error or is stopped', ['consumer'], (g) => {
    g.reset();
    for (const c of consumers()) g.set({ consumer: c.name }, c.status === 'running' ? 1 : 0);
  });
  m.gauge('support_consumer_position', 'The log position after the last event the consumer handled (its commit position)', ['consumer'], (g) => {
    g.reset();
    for (const c of consumers()) g.set({ consumer: c.name }, Number(parsePosition(c.position).commit));
  });
  m.gauge('support_consumer_lag_seconds', 'Age of the oldest event received but not yet handled (0 when caught up)', ['consumer'], (g) => {
    g.reset();
    for (const c of consumers()) g.set({ consumer: c.name }, c.lag_ms / 1000);
  });
  m.gauge('support_consumer_lag_events', `Events in the log after the consumer's position (at most ${LAG_EVENTS_CAP})`, ['consumer'], async (g) => {
    g.reset();
    for (const c of consumers()) {
      const behind = await app.engines.events.readAll(parsePosition(c.position), LAG_EVENTS_CAP).catch(() => null);
      if (behind) g.set({ consumer: c.name }, behind.length);
    }
  });
  m.gauge('support_consumer_consecutive_failures', 'Errors in a row (0 once a batch succeeds)', ['consumer'], (g) => {
    g.reset();
    for (const c of consumers()) g.set({ consumer: c.name }, c.failures);
  });
  m.counter('support_consumer_failures_total', 'Errors of the consumer since the process started (each is retried with backoff)', ['consumer'], (counter) => {
    counter.reset();
    for (const c of consumers()) counter.inc({ consumer: c.name }, c.failures_total);
  });
  m.counter('support_consumer_events_total', 'Events the consumer handled since the process started', ['consumer'], (counter) => {
    counter.reset();
    for (const c of consumers()) counter.inc({ consumer: c.name }, c.handled_total);
  });
  m.gauge(
    'support_projection_set_aside_events',
    'Events a projector set aside (a read model cannot apply them) and no operator has skipped yet',
    ['consumer'],
    (g) => {
      g.reset();
      for (const c of consumers()) if (c.set_aside !== undefined) g.set({ consumer: c.name }, c.set_aside);
    },
  );
  m.gauge('support_lease_active', '1 when this instance holds the lease and runs its work, 0 on standby', ['lease'], (g) => {
    g.reset();
    for (const l of probes.leases()) g.set({ lease: l.name }, l.role === 'active' ? 1 : 0);
  });
};
