import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail, isBlank } from '@support/domain';
import { TagChanges, TagEvent } from './events';

type Created = Extract<TagEvent, { type: 'tag.created' }>['data'];
export type TagState = { status: 'absent' } | { status: 'deleted'; id: string } | ({ status: 'live' } & Created);

export type TagCommand =
  { type: 'create'; id: string; workspace_id: string; name: string; color: string | null } | { type: 'update'; changes: TagChanges } | { type: 'delete' };

/** Tag names compare without case or surrounding space: "Billing" and " billing" are one tag. */
export const tagNameKey = (name: string): string => name.normalize('NFC').trim().toLowerCase();

export const tagDecider: Decider<TagCommand, TagEvent, TagState> = {
  initialState: { status: 'absent' },
  decide(command, state) {
    if (command.type === 'create') {
      if (state.status !== 'absent') return fail('conflict', `tag ${command.id} already exists`);
      const name = command.name.trim();
      if (isBlank(name)) return fail('validation', 'name must not be empty');
      return E.right([{ type: 'tag.created', data: { id: command.id, workspace_id: command.workspace_id, name, color: command.color, is_active: true } }]);
    }
    if (state.status !== 'live') return fail('not_found', 'tag not found');
    if (command.type === 'delete') return E.right([{ type: 'tag.deleted', data: { id: state.id } }]);
    const requested = { ...command.changes, ...(command.changes.name !== undefined ? { name: command.changes.name.trim() } : {}) };
    if (requested.name !== undefined && isBlank(requested.name)) return fail('validation', 'name must not be empty');
    const changes = changedFields(state, requested);
    return E.right(Object.keys(changes).length ? [{ type: 'tag.updated', data: { id: state.id, changes } }] : []);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'tag.created':
        return { status: 'live', ...event.data };
      case 'tag.updated':
        return state.status === 'live' ? { ...state, ...event.data.changes } : state;
      case 'tag.deleted':
        return { status: 'deleted', id: event.data.id };
    }
  },
};
