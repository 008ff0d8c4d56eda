import * as E from 'fp-ts/Either';
import { changedFields, Decider } from '../decider';
import { ImportCommand, importedFields, ownedBy } from '../imported';
import { uniqueTags } from '../text';
import { CannedResponseChanges, CannedResponseEvent } from './events';
import { CannedResponseInput } from './input';

type Created = Extract<CannedResponseEvent, { type: 'canned_response.created' }>['data'];
export type CannedResponseState = { exists: false } | ({ exists: true } & Created);
export type CannedResponseCommand = ImportCommand<CannedResponseInput>;

export const cannedResponseDecider: Decider<CannedResponseCommand, CannedResponseEvent, CannedResponseState> = {
  initialState: { exists: false },
  decide(command, state) {
    const fields = importedFields(CannedResponseInput, command.input);
    if (E.isLeft(fields)) return fields;
    const given = fields.right;
    if (!state.exists) {
      return E.right([
        {
          type: 'canned_response.created',
          data: {
            id: command.id,
            workspace_id: command.workspace_id,
            name: given.name,
            content: given.content,
            shortcut: given.shortcut ?? null,
            visibility: given.visibility ?? 'personal',
            set_status: given.set_status ?? null,
            set_priority: given.set_priority ?? null,
            add_tags: uniqueTags(given.add_tags ?? []),
            usage_count: given.usage_count ?? 0,
            created_at: given.created_at ?? command.at,
          },
        },
      ]);
    }
    const owned = ownedBy('canned_response', state, command.workspace_id);
    if (E.isLeft(owned)) return owned;
    const requested: CannedResponseChanges = { ...given, ...(given.add_tags !== undefined ? { add_tags: uniqueTags(given.add_tags) } : {}) };
    const changes = changedFields(state, requested as Partial<Created>) as CannedResponseChanges;
    return E.right(Object.keys(changes).length ? [{ type: 'canned_response.updated', data: { id: state.id, changes } }] : []);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'canned_response.created':
        return { exists: true, ...event.data };
      case 'canned_response.updated':
        return state.exists ? { ...state, ...event.data.changes } : state;
    }
  },
};
