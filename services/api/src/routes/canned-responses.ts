import { CannedResponseResource, DEFAULT_LIMIT, idParams, linksTo, listBody, listOf, pageParams, route, struct, toCannedResponse } from '@support/http';

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
      const page = await app.reads.cannedResponses.find(principal.workspaceId, { startingAfter: query.starting_after, limit: query.limit ?? DEFAULT_LIMIT });
      return { body: listBody(page.items.map(toCannedResponse), page.hasMore) };
    },
  }),
  route({
    method: 'get',
    path: '/canned_responses/:id',
    tag: 'canned_responses',
    summary: 'Get a canned response',
    scope: 'conversations:read',
    params: idParams,
    response: { status: 200, codec: CannedResponseResource, description: 'The canned response' },
    handler: async ({ app, principal, params }) => {
      const doc = await app.reads.cannedResponses.require(principal.workspaceId, params.id, 'canned response');
      return { body: toCannedResponse(doc) };
    },
  }),
];
