import { customerInput } from '@support/customers';
import { CHANNELS, PRIORITIES } from './events';
import { ConversationResource, toConversation } from './conversation-resource';
import { conversationsOf } from './read-model';
import {
  arrayOf,
  commandContext,
  DEFAULT_LIMIT,
  freeObject,
  linksTo,
  listBody,
  listOf,
  nullable,
  oneOf,
  pageParams,
  readBack,
  resourceId,
  route,
  str,
  struct,
} from '@support/http';

export const conversationParams = struct({ id: resourceId('conv_', 'conversation') });

export const conversationRoutes = [
  route({
    method: 'get',
    path: '/conversations',
    tag: 'conversations',
    summary: 'List conversations, newest first',
    scope: 'conversations:read',
    links: linksTo(['GET /conversations/:id', 'GET /conversations/:id/messages'], { id: '$response.body#/data/0/id' }),
    query: struct(
      {},
      {
        ...pageParams,
        status: oneOf(['open', 'closed'] as const),
        channel: oneOf(CHANNELS),
        channel_id: str({ max: 100 }),
        customer_id: str({ max: 100 }),
        priority: oneOf(PRIORITIES),
      },
    ),
    response: { status: 200, codec: listOf(ConversationResource, 'conversation'), description: 'A page of conversations' },
    handler: async ({ app, principal, query }) => {
      const { limit, starting_after, ...filters } = query;
      const page = await conversationsOf(app).reads.find(principal.workspaceId, {
        where: filters,
        startingAfter: starting_after,
        limit: limit ?? DEFAULT_LIMIT,
      });
      return { body: listBody(page.items.map(toConversation), page.hasMore) };
    },
  }),
  route({
    method: 'post',
    path: '/conversations',
    tag: 'conversations',
    scope: 'conversations:write',
    summary: 'Start a conversation; a customer given is created or matched (cross-channel dedup)',
    body: struct(
      {},
      { channel: oneOf(CHANNELS, 'Default api'), customer: customerInput, metadata: freeObject('Free keys, kept as given') },
      { example: { customer: { email: 'ada.moreau@example.com', name: 'Ada Moreau' }, metadata: { order_id: 'ORD-20931' } } },
    ),
    bodyOptional: true,
    response: { status: 201, codec: ConversationResource, description: 'The new conversation' },
    links: linksTo(['GET /conversations/:id', 'PATCH /conversations/:id', 'GET /conversations/:id/messages', 'POST /conversations/:id/messages'], {
      id: '$response.body#/id',
    }),
    handler: async ({ app, principal, body, requestId, idempotency }) => {
      const { id, position } = await conversationsOf(app).commands.create(commandContext(principal, requestId, idempotency), body);
      const doc = await readBack(app, position, () => conversationsOf(app).reads.get(principal.workspaceId, id), 'conversation', id);
      return { body: toConversation(doc) };
    },
  }),
  route({
    method: 'get',
    path: '/conversations/:id',
    tag: 'conversations',
    summary: 'Get a conversation',
    scope: 'conversations:read',
    params: conversationParams,
    response: { status: 200, codec: ConversationResource, description: 'The conversation' },
    handler: async ({ app, principal, params }) => {
      const doc = await conversationsOf(app).reads.require(principal.workspaceId, params.id, 'conversation');
      return { body: toConversation(doc) };
    },
  }),
  route({
    method: 'patch',
    path: '/conversations/:id',
    tag: 'conversations',
    scope: 'conversations:write',
    summary: 'Close or reopen (`resolved` is accepted as `closed`), set priority, tags or assignee',
    params: conversationParams,
    body: struct(
      {},
      {
        status: oneOf(['open', 'closed', 'resolved'] as const),
        priority: oneOf(PRIORITIES),
        tags: arrayOf(str({ min: 1, max: 100 }), { max: 100 }),
        assignee: nullable(str({ min: 1, max: 100, description: '`ai`, a user id, or null to unassign' })),
      },
      { example: { status: 'closed', priority: 'high', tags: ['billing'] } },
    ),
    response: { status: 200, codec: ConversationResource, description: 'The updated conversation' },
    handler: async ({ app, principal, params, body, requestId, idempotency }) => {
      const { position } = await conversationsOf(app).commands.update(commandContext(principal, requestId, idempotency), params.id, body);
      const doc = await readBack(app, position, () => conversationsOf(app).reads.get(principal.workspaceId, params.id), 'conversation', params.id);
      return { body: toConversation(doc) };
    },
  }),
];
