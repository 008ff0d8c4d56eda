import { formatPosition, parsePosition, RecordedEvent } from '@support/eventstore';

/** Every domain event goes to `support.events.<workspace or _>.<type>`. */
export const EVENTS_SUBJECT = 'support.events.>';
export const DISPATCHER_DURABLE = 'dispatcher';

export const subjectOf = (event: RecordedEvent) => `support.events.${event.metadata.workspace_id ?? '_'}.${event.type}`;

/** A recorded event as bus data (positions are bigints: carried as text). */
export const toBusMessage = (event: RecordedEvent) => ({ ...event, position: formatPosition(event.position) });

export const fromBusMessage = (data: unknown): RecordedEvent => {
  const d = data as RecordedEvent & { position: string };
  return { ...d, position: parsePosition(d.position) };
};
