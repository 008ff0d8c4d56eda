import { type EventStore, forwardingEvents, PartialAppendError, WrongExpectedRevisionError } from '@support/eventstore';
import type { Metrics } from '@support/kernel';

/**
 * The event store port with its appends measured: latency by operation and outcome, and
 * conflicts (another writer moved the stream first). Everything else passes through.
 */
export const meteredEvents = (events: EventStore, metrics: Metrics): EventStore => {
  const seconds = metrics.histogram('support_eventstore_append_duration_seconds', 'Event store appends, by operation and outcome', ['operation', 'outcome']);
  const conflicts = metrics.counter('support_eventstore_append_conflicts_total', 'Appends refused because the stream had moved (optimistic concurrency)');
  const timed = async <T>(operation: 'append' | 'append_many', run: () => Promise<T>): Promise<T> => {
    const end = seconds.startTimer({ operation });
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      const conflict = err instanceof WrongExpectedRevisionError || (err instanceof PartialAppendError && err.failure instanceof WrongExpectedRevisionError);
      if (conflict) conflicts.inc();
      end({ outcome: conflict ? 'conflict' : 'error' });
      throw err;
    }
  };
  return {
    ...forwardingEvents(events),
    append: (stream, batch, expected) => timed('append', () => events.append(stream, batch, expected)),
    appendMany: (appends) => timed('append_many', () => events.appendMany(appends)),
  };
};
