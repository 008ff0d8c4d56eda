import * as t from 'io-ts';
import type { Feature } from '@support/application';
import { TicketEvent } from './events';
import { TICKET_IMPORT } from './import';
import { TicketNumberEvent } from './number-events';
import { ticketsProjection } from './projection';

/** What the processes compose (@support/catalog): the tickets' and their numbers' events, the read model, the import kind. */
export const ticketsFeature: Feature = {
  events: t.union([...TicketEvent.types, TicketNumberEvent]),
  projections: [ticketsProjection],
  imports: [TICKET_IMPORT],
};
