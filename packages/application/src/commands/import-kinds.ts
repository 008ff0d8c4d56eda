import { DomainEvent, ID_PREFIX, ImportCommand, TicketCommand, ticketDecider, TicketEvent, TicketInput, TicketState } from '@support/domain';
import type * as t from 'io-ts';
import { Aggregate } from './execute';

export const ticketStream = (id: string) => `ticket-${id}`;

export const ticketAggregate: Aggregate<TicketCommand, TicketEvent, TicketState> = { decider: ticketDecider, codec: TicketEvent };

/** A key of an import file (operator interface): one per kind of read-only resource. */
export type ImportKind = string;

/** How one kind of record is imported: its key in the file, how an item reads, its stream, its decider, and its command. */
export interface ImportKindSpec<I, C, Ev extends DomainEvent, S> {
  key: ImportKind;
  input: t.Type<I, unknown, unknown>;
  prefix: string;
  aggregate: Aggregate<C, Ev, S>;
  stream(id: string): string;
  /** The workspace of the record the stream holds, or null when it holds none. */
  owner(state: S): string | null;
  /** `numbers`: ticket numbers allocated for this import, by ticket id. */
  command(base: ImportCommand<I>, numbers: ReadonlyMap<string, number>): C;
}

const ownerOf = (s: { exists: false } | { exists: true; workspace_id: string }) => (s.exists ? s.workspace_id : null);

export const TICKET_IMPORT: ImportKindSpec<TicketInput, TicketCommand, TicketEvent, TicketState> = {
  key: 'tickets',
  input: TicketInput,
  prefix: ID_PREFIX.ticket,
  aggregate: ticketAggregate,
  stream: ticketStream,
  owner: ownerOf,
  command: (base, numbers) => ({ ...base, next_number: numbers.get(base.id) ?? null }),
};
/**
 * The import kind of a record that arrives by import as it is given (importedRecordDecider):
 * its import command is the item itself, and it belongs to the workspace that imported it.
 */
export const importedRecordKind = <I, Ev extends DomainEvent, S extends { exists: false } | { exists: true; workspace_id: string }>(
  kind: Pick<ImportKindSpec<I, ImportCommand<I>, Ev, S>, 'key' | 'input' | 'prefix' | 'aggregate' | 'stream'>,
): ImportKindSpec<I, ImportCommand<I>, Ev, S> => ({ ...kind, owner: ownerOf, command: (base) => base });

/** A list of different kinds: each spec's own types are checked where it is declared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyImportSpec = ImportKindSpec<any, any, any, any>;

/** The kinds not yet in a feature folder (features/*); @support/catalog adds the features' to them. */
export const BUILT_IN_IMPORTS: readonly AnyImportSpec[] = [TICKET_IMPORT];
