import { inSpan, LogConsumer, subjectOf, toBusMessage, traceparentOf, type Logger } from '@support/application';
import type { Bus } from '@support/bus';
import type { EventStore } from '@support/eventstore';
import type { ReadStore } from '@support/readstore';

/**
 * Every domain event, in log order, from the event store to the bus. The message id is the
 * event id, so events published again after a crash are dropped by the bus's dedup; the
 * checkpoint only ever covers events the bus has accepted.
 */
export class Relay extends LogConsumer {
  constructor(events: EventStore, reads: ReadStore, bus: Bus, log: Logger) {
    super(
      events,
      reads,
      'relay',
      (event) =>
        // The message carries the event's metadata, its trace context included: the dispatcher continues from it.
        inSpan(
          `publish ${event.type}`,
          { parent: event.metadata.traceparent, kind: 'producer', attributes: { 'messaging.destination.name': subjectOf(event) } },
          () => bus.publish(subjectOf(event), event.id, toBusMessage(event, traceparentOf())),
        ),
      log,
    );
  }
}
