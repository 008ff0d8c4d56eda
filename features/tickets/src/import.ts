import { Aggregate, ImportKindSpec, ownerOf } from '@support/application';
import { ID_PREFIX, input } from '@support/domain';
import { TicketCommand, ticketDecider, TicketState } from './decider';
import { TicketEvent } from './events';
import { TicketInput } from './input';
import { TicketNumbers } from './numbers';

export const ticketStream = (id: string) => `ticket-${id}`;
export const ticketAggregate: Aggregate<TicketCommand, TicketEvent, TicketState> = { decider: ticketDecider, codec: TicketEvent };

/** A number given by two tickets of one file. */
const duplicateNumbers = (tickets: readonly { number?: number }[]): input.InputProblem[] => {
  const seen = new Map<number, number>();
  const problems: input.InputProblem[] = [];
  tickets.forEach(({ number }, index) => {
    if (number === undefined) return;
    const first = seen.get(number);
    if (first !== undefined) problems.push({ field: `tickets[${index}].number`, message: `${number} is also given by tickets[${first}]` });
    else seen.set(number, index);
  });
  return problems;
};

/**
 * Tickets enter only by the operator's import, under `tickets`. Before any is applied, the new
 * ones and those that bring a number get theirs from the workspace's sequence (a number given
 * twice in the file refuses it).
 */
export const TICKET_IMPORT: ImportKindSpec<TicketInput, TicketCommand, TicketEvent, TicketState, ReadonlyMap<string, number>> = {
  key: 'tickets',
  input: TicketInput,
  prefix: ID_PREFIX.ticket,
  aggregate: ticketAggregate,
  stream: ticketStream,
  owner: ownerOf,
  check: duplicateNumbers,
  prepare: (deps, ctx, planned) =>
    new TicketNumbers(deps).allocate(
      ctx,
      planned.filter((p) => !p.exists || p.input.number !== undefined).map((p) => ({ ticket_id: p.id, number: p.input.number ?? null })),
    ),
  command: (base, numbers) => ({ ...base, next_number: numbers.get(base.id) ?? null }),
};
