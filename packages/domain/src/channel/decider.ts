import * as E from 'fp-ts/Either';
import { changedFields, Decider } from '../decider';
import { ImportCommand, importedFields, ownedBy } from '../imported';
import { ChannelChanges, ChannelEvent } from './events';
import { ChannelInput } from './input';

type Created = Extract<ChannelEvent, { type: 'channel.created' }>['data'];
export type ChannelState = { exists: false } | ({ exists: true } & Created);
export type ChannelCommand = ImportCommand<ChannelInput>;

export const channelDecider: Decider<ChannelCommand, ChannelEvent, ChannelState> = {
  initialState: { exists: false },
  decide(command, state) {
    const fields = importedFields(ChannelInput, command.input);
    if (E.isLeft(fields)) return fields;
    const { conversation_count: _counted, ...given } = fields.right;
    if (!state.exists) {
      return E.right([
        {
          type: 'channel.created',
          data: {
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
          },
        },
      ]);
    }
    const owned = ownedBy('channel', state, command.workspace_id);
    if (E.isLeft(owned)) return owned;
    // A given `config` replaces the stored one as a whole.
    const changes = changedFields(state, given as Partial<Created>) as ChannelChanges;
    return E.right(Object.keys(changes).length ? [{ type: 'channel.updated', data: { id: state.id, changes } }] : []);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'channel.created':
        return { exists: true, ...event.data };
      case 'channel.updated':
        return state.exists ? { ...state, ...event.data.changes } : state;
    }
  },
};
