import * as t from 'io-ts';
import { anyJson, arrayOf, bool, literal, nullable, oneOf, str, struct } from '@support/http/codec';
import { EXAMPLE_AT, EXAMPLE_ID, timestamp } from '@support/http/resources';
import { CHANNELS } from './events';
import type { MessageDocument } from './message-projection';

/** Spec 2.3, plus the caller's `client_message_id`. Also the `data` of `message.created` events. */
export const MessageResource = struct(
  {
    object: literal('message'),
    id: str(),
    conversation_id: str(),
    ticket_id: nullable(str()),
    sender_type: oneOf(['customer', 'agent', 'ai', 'system'] as const),
    sender_id: nullable(str()),
    content: str(),
    visibility: oneOf(['public', 'internal'] as const),
    channel: oneOf(CHANNELS),
    external_id: nullable(str()),
    attachments: arrayOf(anyJson()),
    is_read: bool(),
    client_message_id: nullable(str()),
    created_at: timestamp(),
  },
  {},
  {
    title: 'message',
    example: {
      object: 'message',
      id: EXAMPLE_ID.message,
      conversation_id: EXAMPLE_ID.conversation,
      ticket_id: null,
      sender_type: 'customer',
      sender_id: EXAMPLE_ID.customer,
      content: 'Hi! I was charged twice for my November invoice.',
      visibility: 'public',
      channel: 'api',
      external_id: null,
      attachments: [],
      is_read: false,
      client_message_id: 'ios-7f3c2a',
      created_at: EXAMPLE_AT.updated,
    },
  },
);
export type MessageResource = t.TypeOf<typeof MessageResource>;

export const toMessage = (d: MessageDocument): MessageResource => ({
  object: 'message',
  id: d.id,
  conversation_id: d.conversation_id,
  ticket_id: d.ticket_id ?? null,
  sender_type: d.sender_type,
  sender_id: d.sender_id ?? null,
  content: d.content,
  visibility: d.visibility,
  channel: d.channel,
  external_id: d.external_id ?? null,
  attachments: d.attachments ?? [],
  is_read: !!d.is_read,
  client_message_id: d.client_message_id ?? null,
  created_at: d.created_at,
});
