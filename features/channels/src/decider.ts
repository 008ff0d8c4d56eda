import { Decider, ImportCommand, importedRecordDecider, ImportedState } from '@support/domain';
import { ChannelChanges, ChannelEvent } from './events';
import { ChannelInput } from './input';

type Created = Extract<ChannelEvent, { type: 'channel.created' }>['data'];
export type ChannelState = ImportedState<Created>;
export type ChannelCommand = ImportCommand<ChannelInput>;

export const channelDecider: Decider<ChannelCommand, ChannelEvent, ChannelState> = importedRecordDecider({
  kind: 'channel',
  input: ChannelInput,
  // conversation_count is the service's own count: an import never sets it.
  created: (given, command): Created => ({
    id: command.id,
    workspace_id: command.workspace_id,
    type: given.type,
    name: given.name,
    is_active: given.is_active ?? true,
    status: given.status ?? 'pending',
    last_connected_at: given.last_connected_at ?? null,
    last_error_message: given.last_error_message ?? null,
    config: given.config ?? {},
    created_at: given.created_at ?? command.at,
  }),
  // A given `config` replaces the stored one as a whole.
  changes: ({ conversation_count: _counted, ...given }): ChannelChanges => given,
});
