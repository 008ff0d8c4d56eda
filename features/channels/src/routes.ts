import { listBody, listOf, route, struct } from '@support/http';
import { channelsOf } from './queries';
import { ChannelResource, toChannel } from './resource';

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
      const { items } = await channelsOf(app).find(principal.workspaceId, {});
      return { body: listBody(items.map(toChannel), false) };
    },
  }),
];
