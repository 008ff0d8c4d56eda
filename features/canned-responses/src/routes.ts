import { perApplication, Scoped } from '@support/application';
import { DEFAULT_LIMIT, idParams, linksTo, listBody, listOf, pageParams, route, struct } from '@support/http';
import { CANNED_RESPONSES, type CannedResponseDocument } from './projection';
import { CannedResponseResource, toCannedResponse } from './resource';

/** The read model over an application's read store. */
const cannedResponsesOf = perApplication((app) => new Scoped(app.engines.reads.collection<CannedResponseDocument>(CANNED_RESPONSES)));

/** Read-only (spec 4.7): canned responses enter by the operator's import. */
export const cannedResponseRoutes = [
  route({
    method: 'get',
    path: '/canned_responses',
    tag: 'canned_responses',
    summary: 'List canned responses, newest first',
    scope: 'conversations:read',
    query: struct({}, pageParams),
    response: { status: 200, codec: listOf(CannedResponseResource, 'canned_response'), description: 'A page of canned responses' },
    links: linksTo(['GET /canned_responses/:id'], { id: '$response.body#/data/0/id' }),
    handler: async ({ app, principal, query }) => {
      const page = await cannedResponsesOf(app).find(principal.workspaceId, { startingAfter: query.starting_after, limit: query.limit ?? DEFAULT_LIMIT });
      return { body: listBody(page.items.map(toCannedResponse), page.hasMore) };
    },
  }),
  route({
    method: 'get',
    path: '/canned_responses/:id',
    tag: 'canned_responses',
    summary: 'Get a canned response',
    scope: 'conversations:read',
    params: idParams('cannedResponse'),
    response: { status: 200, codec: CannedResponseResource, description: 'The canned response' },
    handler: async ({ app, principal, params }) => {
      const doc = await cannedResponsesOf(app).require(principal.workspaceId, params.id, 'canned response');
      return { body: toCannedResponse(doc) };
    },
  }),
];
