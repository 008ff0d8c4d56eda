import type { Application } from '@support/application';
import type { SendResult } from '@support/webhooks';

/** Past this many, `support_webhook_deliveries_pending` says this many. */
export const PENDING_CAP = 1000;

/** How an attempt ended, as an operator groups them. */
export const attemptOutcome = (result: SendResult): string => {
  if (result.ok) return 'succeeded';
  if (result.status === 410) return 'gone';
  if (result.status !== null) return 'http_error';
  return 'no_response';
};

/** The dispatcher's series: attempts by outcome and their latency, deliveries waiting (endpoint disables: webhook-endpoints' commands). */
export const dispatcherMetrics = (app: Application, live: { inFlight(): number; due(): number; pending(): Promise<number> }) => {
  const m = app.metrics;
  m.gauge('support_webhook_deliveries_in_flight', 'Delivery attempts being sent by this dispatcher now', [], (g) => g.set(live.inFlight()));
  m.gauge('support_webhook_deliveries_due', 'Pending deliveries due now, as of the last scan (of the first 200 by due time)', [], (g) => g.set(live.due()));
  m.gauge('support_webhook_deliveries_pending', `Deliveries waiting for an attempt, due or scheduled (at most ${PENDING_CAP})`, [], async (g) => {
    g.set(await live.pending());
  });
  return {
    attempts: m.counter('support_webhook_attempts_total', 'Webhook delivery attempts, by outcome (succeeded, http_error, gone, no_response, interrupted)', [
      'outcome',
    ]),
    attemptSeconds: m.histogram('support_webhook_attempt_duration_seconds', 'Time from sending an attempt to its answer (or its failure)', ['outcome']),
    canceled: m.counter('support_webhook_deliveries_canceled_total', 'Deliveries canceled because their endpoint was disabled or deleted'),
  };
};
