import * as t from 'io-ts';
import { ID_PREFIX, input } from '@support/domain';
import { CHANNEL_STATUSES, CHANNEL_TYPES } from './events';

const { among, closed, exactly, flag, isoTime, object, orNull, prefixedId, text, whole } = input;

/**
 * A channel as an import file gives it (spec 2.12); `type` and `name` are required. `config`
 * (an object) holds sensitive settings. `conversation_count` is counted by the service from
 * conversations, so a given one is accepted and ignored, like `object` and `updated_at`.
 */
export const ChannelInput = closed(
  'channel',
  { type: among(CHANNEL_TYPES), name: text() },
  {
    id: prefixedId(ID_PREFIX.channel),
    object: exactly('channel'),
    is_active: flag(),
    status: among(CHANNEL_STATUSES),
    last_connected_at: orNull(isoTime()),
    last_error_message: orNull(text({ blank: true })),
    config: object(),
    conversation_count: whole({ min: 0 }),
    created_at: isoTime(),
    updated_at: isoTime(),
  },
);
export type ChannelInput = t.TypeOf<typeof ChannelInput>;
