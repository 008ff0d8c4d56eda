import { Decider, ImportCommand, importedRecordDecider, ImportedState, uniqueTags } from '@support/domain';
import { CannedResponseChanges, CannedResponseEvent } from './events';
import { CannedResponseInput } from './input';

type Created = Extract<CannedResponseEvent, { type: 'canned_response.created' }>['data'];
export type CannedResponseState = ImportedState<Created>;
export type CannedResponseCommand = ImportCommand<CannedResponseInput>;

export const cannedResponseDecider: Decider<CannedResponseCommand, CannedResponseEvent, CannedResponseState> = importedRecordDecider({
  kind: 'canned_response',
  input: CannedResponseInput,
  created: (given, command): Created => ({
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
  }),
  changes: (given): CannedResponseChanges => ({ ...given, ...(given.add_tags !== undefined ? { add_tags: uniqueTags(given.add_tags) } : {}) }),
});
