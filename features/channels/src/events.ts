import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

/** Operator interface: the channel vocabulary the spec leaves open. */
export const CHANNEL_TYPES = ['widget', 'whatsapp', 'facebook', 'instagram', 'telegram', 'email', 'api'] as const;
export const CHANNEL_STATUSES = ['pending', 'connected', 'error', 'disconnected'] as const;
export const ChannelType = t.keyof({ widget: null, whatsapp: null, facebook: null, instagram: null, telegram: null, email: null, api: null });
export const ChannelStatus = t.keyof({ pending: null, connected: null, error: null, disconnected: null });

/**
 * The channel resource's own fields (spec 2.12) plus `config`: sensitive settings (tokens,
 * secrets) kept in the log and the read model, and never returned by the API.
 */
const fields = {
  type: ChannelType,
  name: t.string,
  is_active: t.boolean,
  status: ChannelStatus,
  last_connected_at: nullable(t.string),
  last_error_message: nullable(t.string),
  config: t.UnknownRecord,
  created_at: t.string,
};

export const ChannelCreated = eventCodec('channel.created', t.type({ id: t.string, workspace_id: t.string, ...fields }));
export const ChannelChanges = t.partial(fields);
export type ChannelChanges = t.TypeOf<typeof ChannelChanges>;
export const ChannelUpdated = eventCodec('channel.updated', t.type({ id: t.string, changes: ChannelChanges }));

export const ChannelEvent = t.union([ChannelCreated, ChannelUpdated]);
export type ChannelEvent = t.TypeOf<typeof ChannelEvent>;
