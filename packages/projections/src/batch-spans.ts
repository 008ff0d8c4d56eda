import type { RecordedEvent } from '@support/eventstore';
import { endSpan, startSpan, tracingEnabled } from '@support/kernel';

/**
 * One span per event of a projector's batch (`project <type>`), each continuing the trace of the
 * request that appended the event (its `traceparent`); nothing when tracing is off.
 */
export const batchSpans = (batch: readonly RecordedEvent[], consumer: string): { end(error?: unknown): void } => {
  if (!tracingEnabled()) return { end: () => undefined };
  const spans = batch.map((e) =>
    startSpan(`project ${e.type}`, {
      parent: e.metadata.traceparent,
      kind: 'consumer',
      attributes: { 'support.consumer': consumer, 'support.stream': e.stream },
    }),
  );
  return { end: (error?: unknown) => spans.forEach((span) => endSpan(span, error)) };
};
