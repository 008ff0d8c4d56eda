import { ChannelResource, listBody, listOf, route, struct, toChannel } from '@support/http';

/** Read-only (spec 4.7): channels enter by the operator's import; their config is never served. */
export const channelRoutes = [
  route({
    method: 'get',
    path: '/channels',
    tag: 'channels',
    summary: 'List channels, newest first (unpaginated)',
    scope: 'channels:read',
    query: struct({}),
    response: { status: 200, codec: listOf(ChannelResource, 'channel'), description: 'Every channel' },
    handler: async ({ app, principal }) => {
      const { items } = await app.reads.channels.find(principal.workspaceId, {});
      return { body: listBody(items.map(toChannel), false) };
    },
  }),
];
