import { type Application, perApplication, Scoped } from '@support/application';
import { TICKETS, type TicketDocument } from './projection';

/** The tickets' read model, a workspace's own. */
export const ticketsOf = perApplication((app: Application) => new Scoped(app.engines.reads.collection<TicketDocument>(TICKETS)));
