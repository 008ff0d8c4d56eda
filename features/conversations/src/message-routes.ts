import { arrayOf, commandContext, DEFAULT_LIMIT, freeObject, linksTo, listBody, listOf, pageParams, readBack, route, str, struct } from '@support/http';
import { conversationParams } from './conversation-routes';
import { MessageResource, toMessage } from './message-resource';
import { conversationsOf } from './read-model';

export const messageRoutes = [
  route({
    method: 'get',
    path: '/conversations/:id/messages',
    tag: 'conversations',
    summary: "A conversation's messages, newest first",
    scope: 'conversations:read',
    params: conversationParams,
    query: struct({}, pageParams),
    response: { status: 200, codec: listOf(MessageResource, 'message'), description: 'A page of messages' },
    handler: async ({ app, principal, params, query }) => {
      await conversationsOf(app).reads.require(principal.workspaceId, params.id, 'conversation');
      const page = await conversationsOf(app).messages.find(principal.workspaceId, {
        where: { conversation_id: params.id },
        startingAfter: query.starting_after,
        limit: query.limit ?? DEFAULT_LIMIT,
      });
      return { body: listBody(page.items.map(toMessage), page.hasMore) };
    },
  }),
  route({
    method: 'post',
    path: '/conversations/:id/messages',
    tag: 'conversations',
    scope: 'messages:write',
    summary: 'Post an agent message (emits message.created); a repeated client_message_id returns the first message',
    params: conversationParams,
    body: struct(
      { content: str({ min: 1, max: 20_000, notBlank: true }) },
      {
        attachments: arrayOf(freeObject('An attachment: free keys, e.g. url, filename, content_type'), { max: 20 }),
        channel_metadata: freeObject('Channel-specific data, stored with the message'),
        client_message_id: str({ min: 1, max: 128, description: "The caller's own id for dedup" }),
      },
      { example: { content: 'Thanks Ada, the duplicate charge is refunded: expect it within 5 business days.', client_message_id: 'crm-reply-8841' } },
    ),
    response: { status: 201, codec: MessageResource, description: 'The message (the first one, for a repeated client_message_id)' },
    links: linksTo(['GET /conversations/:id', 'GET /conversations/:id/messages'], { id: '$response.body#/conversation_id' }),
    handler: async ({ app, principal, params, body, requestId, idempotency }) => {
      const { id, position } = await conversationsOf(app).commands.postMessage(commandContext(principal, requestId, idempotency), params.id, body);
      const doc = await readBack(app, position, () => conversationsOf(app).messages.get(principal.workspaceId, id), 'message', id);
      return { body: toMessage(doc) };
    },
  }),
];
