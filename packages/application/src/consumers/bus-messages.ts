import { formatPosition, parsePosition, RecordedEvent } from '@support/eventstore';

/** Every domain event goes to `support.events.<workspace or _>.<type>`. */
export const EVENTS_SUBJECT = 'support.events.>';
export const DISPATCHER_DURABLE = 'dispatcher';

export const subjectOf = (event: RecordedEvent) => `support.events.${event.metadata.workspace_id ?? '_'}.${event.type}`;

/**
 * A recorded event as bus data (positions are bigints: carried as text). Field by field: an
 * adapter's event may work out its data and metadata when they are first read, which a spread
 * would leave out.
 */
export const toBusMessage = (event: RecordedEvent) => ({
  id: event.id,
  stream: event.stream,
  revision: event.revision,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  position: formatPosition(event.position),
});

export const fromBusMessage = (data: unknown): RecordedEvent => {
  const d = data as RecordedEvent & { position: string };
  return { ...d, position: parsePosition(d.position) };
};
