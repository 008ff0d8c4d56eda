import * as t from 'io-ts';
import { eventCodec } from '@support/domain';

/** A workspace's ticket number handed to a ticket (or taken by an imported ticket that brought its own, higher one). */
export const TicketNumberAllocated = eventCodec('ticket_number.allocated', t.type({ ticket_id: t.string, number: t.number }));

/** The sequence's only event. */
export const TicketNumberEvent = TicketNumberAllocated;
export type TicketNumberEvent = t.TypeOf<typeof TicketNumberEvent>;
