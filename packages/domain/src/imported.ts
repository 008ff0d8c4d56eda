import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { DomainError, fail } from './decider';
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
