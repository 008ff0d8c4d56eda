import * as t from 'io-ts';
import { bool, EXAMPLE_AT, EXAMPLE_ID, int, literal, nullable, oneOf, str, struct, timestamp } from '@support/http';
import { CHANNEL_STATUSES, CHANNEL_TYPES } from './events';
import type { ChannelDocument } from './projection';

/** Spec 2.12. The stored `config` (sensitive settings) is not part of the resource. */
export const ChannelResource = struct(
  {
    object: literal('channel'),
    id: str(),
    type: oneOf(CHANNEL_TYPES),
    name: str(),
    is_active: bool(),
    status: oneOf(CHANNEL_STATUSES),
    last_connected_at: nullable(timestamp()),
    last_error_message: nullable(str()),
    conversation_count: int({ min: 0 }),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  {
    title: 'channel',
    example: {
      object: 'channel',
      id: EXAMPLE_ID.channel,
      type: 'whatsapp',
      name: 'WhatsApp support line',
      is_active: true,
      status: 'connected',
      last_connected_at: EXAMPLE_AT.updated,
      last_error_message: null,
      conversation_count: 318,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
);
export type ChannelResource = t.TypeOf<typeof ChannelResource>;

/** Picks the resource's fields one by one: nothing else of the document (config) can leak. */
export const toChannel = (d: ChannelDocument): ChannelResource => ({
  object: 'channel',
  id: d.id,
  type: d.type,
  name: d.name,
  is_active: d.is_active,
  status: d.status,
  last_connected_at: d.last_connected_at ?? null,
  last_error_message: d.last_error_message ?? null,
  conversation_count: d.conversation_count ?? 0,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
