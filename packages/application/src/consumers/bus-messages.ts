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
export const toBusMessage = (event: RecordedEvent, traceparent?: string) => ({
  id: event.id,
  stream: event.stream,
  revision: event.revision,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  position: formatPosition(event.position),
  // The publishing span's trace context (as CloudEvents' tracing extension carries it), when tracing is on.
  ...(traceparent ? { traceparent } : {}),
});

/** The event as published; its `metadata.traceparent` is the publisher's, so a consumer's span follows the publish. */
export const fromBusMessage = (data: unknown): RecordedEvent => {
  const { traceparent, ...d } = data as RecordedEvent & { position: string; traceparent?: string };
  return { ...d, position: parsePosition(d.position), ...(traceparent ? { metadata: { ...d.metadata, traceparent } } : {}) };
};
