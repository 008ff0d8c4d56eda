import { importedRecordKind } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { channelDecider, ChannelState } from './decider';
import { ChannelEvent } from './events';
import { ChannelInput } from './input';

export const channelStream = (id: string) => `channel-${id}`;

/** Channels enter only by the operator's import, under `channels`. */
export const CHANNEL_IMPORT = importedRecordKind<ChannelInput, ChannelEvent, ChannelState>({
  key: 'channels',
  input: ChannelInput,
  prefix: ID_PREFIX.channel,
  aggregate: { decider: channelDecider, codec: ChannelEvent },
  stream: channelStream,
});
