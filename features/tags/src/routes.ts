import { perApplication, Scoped } from '@support/application';
import { bool, commandContext, deletedOf, EXAMPLE_ID, idParams, linksTo, listBody, listOf, nullable, readBack, route, str, struct } from '@support/http';
import { Tags } from './commands';
import { TAGS, type TagDocument } from './projection';
import { TagResource, toTag } from './resource';

/** The tags' commands and read model over an application's ports. */
export const tagsOf = perApplication((app) => ({
  commands: new Tags(app.deps, app.reservations),
  reads: new Scoped(app.engines.reads.collection<TagDocument>(TAGS)),
}));

/** Unique per workspace ignoring case and surrounding space, so blank is no name. */
const name = str({ min: 1, max: 100, notBlank: true });
const color = nullable(str({ max: 32, description: 'Any display colour, e.g. #3b82f6' }));

export const tagRoutes = [
  route({
    method: 'get',
    path: '/tags',
    tag: 'tags',
    summary: 'List tags by name (unpaginated)',
    scope: 'conversations:read',
    links: linksTo(['PATCH /tags/:id', 'DELETE /tags/:id'], { id: '$response.body#/data/0/id' }),
    query: struct({}),
    response: { status: 200, codec: listOf(TagResource, 'tag'), description: 'Every tag' },
    handler: async ({ app, principal }) => {
      const { items } = await tagsOf(app).reads.find(principal.workspaceId, { orderBy: { field: 'name_sort', direction: 'asc' } });
      return { body: listBody(items.map(toTag), false) };
    },
  }),
  route({
    method: 'post',
    path: '/tags',
    tag: 'tags',
    summary: 'Create a tag (names are unique per workspace, ignoring case)',
    scope: 'conversations:write',
    body: struct({ name }, { color }, { example: { name: 'billing', color: '#2f80ed' } }),
    response: { status: 201, codec: TagResource, description: 'The new tag' },
    links: linksTo(['PATCH /tags/:id', 'DELETE /tags/:id'], { id: '$response.body#/id' }),
    handler: async ({ app, principal, body, requestId, idempotency }) => {
      const { id, position } = await tagsOf(app).commands.create(commandContext(principal, requestId, idempotency), body);
      const doc = await readBack(app, position, () => tagsOf(app).reads.get(principal.workspaceId, id), 'tag', id);
      return { body: toTag(doc) };
    },
  }),
  route({
    method: 'patch',
    path: '/tags/:id',
    tag: 'tags',
    summary: 'Rename, recolour, activate or deactivate a tag',
    scope: 'conversations:write',
    params: idParams('tag'),
    body: struct({}, { name, color, is_active: bool() }, { example: { color: '#eb5757' } }),
    response: { status: 200, codec: TagResource, description: 'The updated tag' },
    handler: async ({ app, principal, params, body, requestId, idempotency }) => {
      const { position } = await tagsOf(app).commands.update(commandContext(principal, requestId, idempotency), params.id, body);
      const doc = await readBack(app, position, () => tagsOf(app).reads.get(principal.workspaceId, params.id), 'tag', params.id);
      return { body: toTag(doc) };
    },
  }),
  route({
    method: 'delete',
    path: '/tags/:id',
    tag: 'tags',
    summary: 'Delete a tag',
    scope: 'conversations:write',
    params: idParams('tag'),
    response: { status: 200, codec: deletedOf('tag', EXAMPLE_ID.tag), description: 'The deleted tag id' },
    handler: async ({ app, principal, params, requestId, idempotency }) => {
      const { position } = await tagsOf(app).commands.delete(commandContext(principal, requestId, idempotency), params.id);
      await app.settle(position);
      return { body: { object: 'tag', id: params.id, deleted: true } };
    },
  }),
];
