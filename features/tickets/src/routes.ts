import { DEFAULT_LIMIT, idParams, linksTo, listBody, listOf, oneOf, pageParams, route, str, struct } from '@support/http';
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from './events';
import { ticketsOf } from './read-model';
import { TicketResource, toTicket } from './resource';

const reference = (what: string) => str({ min: 1, max: 255, description: `Only tickets with this ${what}` });

/** Read-only (spec 4.7): tickets enter by the operator's import. */
export const ticketRoutes = [
  route({
    method: 'get',
    path: '/tickets',
    tag: 'tickets',
    summary: 'List tickets, newest first',
    scope: 'tickets:read',
    query: struct(
      {},
      {
        ...pageParams,
        status: oneOf(TICKET_STATUSES),
        priority: oneOf(TICKET_PRIORITIES),
        type: oneOf(TICKET_TYPES),
        customer_id: reference('customer_id'),
        assignee_id: reference('assignee_id'),
      },
    ),
    response: { status: 200, codec: listOf(TicketResource, 'ticket'), description: 'A page of tickets' },
    links: linksTo(['GET /tickets/:id'], { id: '$response.body#/data/0/id' }),
    handler: async ({ app, principal, query }) => {
      const { limit, starting_after, ...filters } = query;
      const page = await ticketsOf(app).find(principal.workspaceId, { where: filters, startingAfter: starting_after, limit: limit ?? DEFAULT_LIMIT });
      return { body: listBody(page.items.map(toTicket), page.hasMore) };
    },
  }),
  route({
    method: 'get',
    path: '/tickets/:id',
    tag: 'tickets',
    summary: 'Get a ticket',
    scope: 'tickets:read',
    params: idParams('ticket'),
    response: { status: 200, codec: TicketResource, description: 'The ticket' },
    handler: async ({ app, principal, params }) => {
      const doc = await ticketsOf(app).require(principal.workspaceId, params.id, 'ticket');
      return { body: toTicket(doc) };
    },
  }),
];
