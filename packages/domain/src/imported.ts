import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { changedFields, Decider, DomainError, fail } from './decider';
import { checkInput } from './input';

/**
 * An imported record (operator `import`): created when its stream is new, updated when it
 * exists. The command carries the id, the workspace and its time (`at`, the default for
 * `created_at`); the decider has no clock and makes no ids.
 */
export interface ImportCommand<I> {
  type: 'import';
  id: string;
  workspace_id: string;
  at: string;
  input: I;
}

/** Fields an import file may carry that the record does not take from it. */
type ReadOnly = 'id' | 'object' | 'updated_at';

/** Checks the item against its codec again (commands can come from anywhere) and drops the read-only fields. */
export const importedFields = <I extends Partial<Record<ReadOnly, unknown>>>(
  codec: t.Decoder<unknown, I>,
  input: I,
): E.Either<DomainError, Omit<I, ReadOnly>> => {
  const checked = checkInput(codec, input);
  if (E.isLeft(checked)) return fail('validation', checked.left);
  const { id: _id, object: _object, updated_at: _updated, ...fields } = checked.right;
  return E.right(fields);
};

/** An existing record of another workspace is never touched by this one's import. */
export const ownedBy = (kind: string, state: { id: string; workspace_id: string }, workspaceId: string): E.Either<DomainError, void> =>
  state.workspace_id === workspaceId ? E.right(undefined) : fail('conflict', `${kind} ${state.id} belongs to another workspace`);

/** An imported record's state: its created payload with the changes since, once it exists. */
export type ImportedState<Created> = { exists: false } | ({ exists: true } & Created);

type ImportedEvent<K extends string, Created, Changes> =
  { type: `${K}.created`; data: Created } | { type: `${K}.updated`; data: { id: string; changes: Changes } };

/** What tells one imported record's decider from another: its kind, its input codec, how it reads a first and a later import. */
export interface ImportedRecord<K extends string, I extends Partial<Record<ReadOnly, unknown>>, Created, Changes> {
  /** The event types' prefix, and the word in the refusal of another workspace's record. */
  kind: K;
  input: t.Decoder<unknown, I>;
  /** The payload of `<kind>.created` from a first import's fields. */
  created(given: Omit<I, ReadOnly>, command: ImportCommand<I>): Created;
  /** What a later import asks to change (each field compared with the state; only the differing ones are recorded). */
  changes(given: Omit<I, ReadOnly>): Changes;
}

/**
 * The decider of a record that arrives by import (articles, canned responses, channels): a
 * first import creates it, a later one records the fields that differ, nothing when none does,
 * and another workspace's record is refused.
 */
export const importedRecordDecider = <
  K extends string,
  I extends Partial<Record<ReadOnly, unknown>>,
  Created extends { id: string; workspace_id: string },
  Changes extends object,
>(
  record: ImportedRecord<K, I, Created, Changes>,
): Decider<ImportCommand<I>, ImportedEvent<K, Created, Changes>, ImportedState<Created>> => ({
  initialState: { exists: false },
  decide(command, state) {
    const fields = importedFields(record.input, command.input);
    if (E.isLeft(fields)) return fields;
    if (!state.exists) return E.right([{ type: `${record.kind}.created` as const, data: record.created(fields.right, command) }]);
    const owned = ownedBy(record.kind, state, command.workspace_id);
    if (E.isLeft(owned)) return owned;
    const changes = changedFields<Created>(state, record.changes(fields.right)) as Changes;
    return E.right(Object.keys(changes).length ? [{ type: `${record.kind}.updated` as const, data: { id: state.id, changes } }] : []);
  },
  evolve(state, event) {
    // Generic over the kind, the event's type does not narrow its payload: told apart by its suffix.
    if (event.type.endsWith('.created')) return { exists: true, ...(event.data as Created) };
    return state.exists ? { ...state, ...(event.data as { changes: Changes }).changes } : state;
  },
});
