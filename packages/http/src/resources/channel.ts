import * as t from 'io-ts';
import { CHANNEL_STATUSES, CHANNEL_TYPES } from '@support/domain';
import type { ChannelDoc } from '@support/application';
import { bool, int, literal, nullable, oneOf, str } from '../codec/primitives';
import { struct } from '../codec/struct';
import { timestamp } from './common';

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
  { title: 'channel' },
);
export type ChannelResource = t.TypeOf<typeof ChannelResource>;

/** Picks the resource's fields one by one: nothing else of the document (config) can leak. */
export const toChannel = (d: ChannelDoc): ChannelResource => ({
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
