import { Aggregate, ImportKindSpec } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { ChannelCommand, channelDecider, ChannelState } from './decider';
import { ChannelEvent } from './events';
import { ChannelInput } from './input';

export const channelStream = (id: string) => `channel-${id}`;
const aggregate: Aggregate<ChannelCommand, ChannelEvent, ChannelState> = { decider: channelDecider, codec: ChannelEvent };

/** Channels enter only by the operator's import, under `channels`. */
export const CHANNEL_IMPORT: ImportKindSpec<ChannelInput, ChannelCommand, ChannelEvent, ChannelState> = {
  key: 'channels',
  input: ChannelInput,
  prefix: ID_PREFIX.channel,
  aggregate,
  stream: channelStream,
  owner: (s) => (s.exists ? s.workspace_id : null),
  command: (base) => base,
};
