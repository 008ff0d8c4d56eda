import { LogConsumer, subjectOf, toBusMessage, type Logger } from '@support/application';
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
    super(events, reads, 'relay', (event) => bus.publish(subjectOf(event), event.id, toBusMessage(event)), log);
  }
}
