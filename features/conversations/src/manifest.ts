import type { Feature } from '@support/application';
import type { ContactEvent } from '@support/customers';
import { ConversationEvent } from './events';
import { conversationsProjection } from './conversation-projection';
import { messagesProjection } from './message-projection';

/** What the processes compose (@support/catalog): the feature's events and read models. */
export const conversationsFeature: Feature = { events: ConversationEvent, projections: [conversationsProjection, messagesProjection], imports: [] };

/** An event type the customers read model follows (ContactEvent) that this feature no longer records, or records in another shape. */
type Drifted<E extends { type: string }, Contact extends { type: string }> = {
  [T in Contact['type']]: [Extract<E, { type: T }>] extends [never] ? T : Extract<E, { type: T }> extends Extract<Contact, { type: T }> ? never : T;
}[Contact['type']];
/** tsc fails here, naming the event type, when the conversations' events drift from what the customers read model reads. */
export const contactEventsHold: [Drifted<ConversationEvent, ContactEvent>] extends [never] ? true : Drifted<ConversationEvent, ContactEvent> = true;
