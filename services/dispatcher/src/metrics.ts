import type { Application } from '@support/application';
import type { SendResult } from '@support/webhooks';

/** How an attempt ended, as an operator groups them. */
export const attemptOutcome = (result: SendResult): string => {
  if (result.ok) return 'succeeded';
  if (result.status === 410) return 'gone';
  if (result.status !== null) return 'http_error';
  return 'no_response';
};

/** The dispatcher's series: attempts by outcome and their latency, deliveries waiting (endpoint disables: webhook-endpoints' commands). */
export const dispatcherMetrics = (app: Application, live: { inFlight(): number; due(): Promise<number>; pending(): Promise<number> }) => {
  const m = app.metrics;
  m.gauge('support_webhook_deliveries_in_flight', 'Delivery attempts being sent by this dispatcher now', [], (g) => g.set(live.inFlight()));
  m.gauge('support_webhook_deliveries_due', 'Deliveries waiting for an attempt that is due now (all of them, in the shared read store)', [], async (g) => {
    g.set(await live.due());
  });
  m.gauge(
    'support_webhook_deliveries_pending',
    'Deliveries waiting for an attempt, due or scheduled (all of them, in the shared read store)',
    [],
    async (g) => {
      g.set(await live.pending());
    },
  );
  return {
    attempts: m.counterOf(
      'support_webhook_attempts_total',
      'Webhook delivery attempts, by outcome (succeeded, http_error, gone, no_response, interrupted)',
      'outcome',
      ['succeeded', 'http_error', 'gone', 'no_response', 'interrupted'],
    ),
    attemptSeconds: m.histogram('support_webhook_attempt_duration_seconds', 'Time from sending an attempt to its answer (or its failure)', ['outcome']),
    canceled: m.counter('support_webhook_deliveries_canceled_total', 'Deliveries canceled because their endpoint was disabled or deleted'),
  };
};
