import { DomainEvent, ImportCommand, input } from '@support/domain';
import type * as t from 'io-ts';
import { Aggregate, CommandContext, Deps } from './execute';

/** A key of an import file (operator interface): one per kind of read-only resource. */
export type ImportKind = string;

/** One item of an import file, checked and given its id; `exists` when its stream holds it already. */
export interface PlannedItem<I> {
  id: string;
  exists: boolean;
  input: I;
}

/**
 * How one kind of record is imported: its key in the file, how an item reads, its stream, its
 * decider, and its command. `P`: what the kind prepares once the whole file is accepted and
 * before any item is applied (tickets: their numbers), handed to each item's command.
 */
export interface ImportKindSpec<I, C, Ev extends DomainEvent, S, P = undefined> {
  key: ImportKind;
  input: t.Type<I, unknown, unknown>;
  prefix: string;
  aggregate: Aggregate<C, Ev, S>;
  stream(id: string): string;
  /** The workspace of the record the stream holds, or null when it holds none. */
  owner(state: S): string | null;
  /** Problems across the kind's items (a number given twice), found with the file's other checks. */
  check?(items: readonly I[]): input.InputProblem[];
  /** Run once the file is accepted, before any item is applied. */
  prepare?(deps: Deps, ctx: CommandContext & { workspaceId: string }, planned: readonly PlannedItem<I>[]): Promise<P>;
  command(base: ImportCommand<I>, prepared: P): C;
}

export const ownerOf = (s: { exists: false } | { exists: true; workspace_id: string }) => (s.exists ? s.workspace_id : null);

/**
 * The import kind of a record that arrives by import as it is given (importedRecordDecider):
 * its import command is the item itself, and it belongs to the workspace that imported it.
 */
export const importedRecordKind = <I, Ev extends DomainEvent, S extends { exists: false } | { exists: true; workspace_id: string }>(
  kind: Pick<ImportKindSpec<I, ImportCommand<I>, Ev, S>, 'key' | 'input' | 'prefix' | 'aggregate' | 'stream'>,
): ImportKindSpec<I, ImportCommand<I>, Ev, S> => ({ ...kind, owner: ownerOf, command: (base) => base });

/** A list of different kinds: each spec's own types are checked where it is declared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyImportSpec = ImportKindSpec<any, any, any, any, any>;
