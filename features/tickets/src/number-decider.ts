import * as E from 'fp-ts/Either';
import { Decider, fail } from '@support/domain';
import { TicketNumberEvent } from './number-events';

/** The highest ticket number the workspace has used. */
export interface TicketNumberState {
  last: number;
}

/**
 * One request for the tickets of a batch, in order: `number` null asks for the next number;
 * a given number is kept by its ticket and, when higher than any so far, moves the sequence
 * past it so later tickets never get it again.
 */
export type TicketNumberCommand = { type: 'allocate'; tickets: readonly { ticket_id: string; number: number | null }[] };

/**
 * A per-workspace sequence stream: appended with its expected revision, so two writers
 * racing for numbers cannot both get the same one (the loser decides again).
 */
export const ticketNumberDecider: Decider<TicketNumberCommand, TicketNumberEvent, TicketNumberState> = {
  initialState: { last: 0 },
  decide(command, state) {
    let last = state.last;
    const events: TicketNumberEvent[] = [];
    for (const { ticket_id, number } of command.tickets) {
      if (number !== null && (!Number.isSafeInteger(number) || number < 1)) return fail('validation', `ticket number ${number} must be a whole number ≥ 1`);
      if (number !== null && number <= last) continue;
      last = number ?? last + 1;
      events.push({ type: 'ticket_number.allocated', data: { ticket_id, number: last } });
    }
    return E.right(events);
  },
  evolve: (state, event) => ({ last: Math.max(state.last, event.data.number) }),
};
