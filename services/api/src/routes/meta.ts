import { API_VERSION, route } from '@support/http';
import { ApiResource, WorkspaceContextResource } from './meta-resource';

export const metaRoutes = [
  route({
    method: 'get',
    path: '/',
    tag: 'meta',
    summary: 'About this API',
    scope: null,
    response: { status: 200, codec: ApiResource, description: 'The API' },
    handler: async ({ baseUrl }) => ({
      body: { object: 'api', name: 'Customer Support Platform API', version: API_VERSION, documentation_url: `${baseUrl}/docs` },
    }),
  }),
  route({
    method: 'get',
    path: '/me',
    tag: 'meta',
    summary: 'The workspace, environment and scopes of the current key',
    scope: null,
    response: { status: 200, codec: WorkspaceContextResource, description: 'The key context' },
    handler: async ({ principal }) => ({
      body: {
        object: 'workspace_context',
        workspace: { object: 'workspace', id: principal.workspace.id, name: principal.workspace.name, slug: principal.workspace.slug },
        environment: principal.environment,
        scopes: [...principal.scopes],
      },
    }),
  }),
];
