import { arrayOf, EXAMPLE_ID, literal, oneOf, str, struct } from '@support/http';

/** `GET /`: the API itself. */

export const ApiResource = struct(
  { object: literal('api'), name: str(), version: str(), documentation_url: str() },
  {},
  {
    title: 'api',
    example: { object: 'api', name: 'Customer Support Platform API', version: '1.0.0', documentation_url: 'https://support.example.com/v1/docs' },
  },
);

/** `GET /me`: the key in use, its workspace, environment and scopes. */
export const WorkspaceContextResource = struct(
  {
    object: literal('workspace_context'),
    workspace: struct(
      { object: literal('workspace'), id: str(), name: str(), slug: str() },
      {},
      { title: 'workspace', example: { object: 'workspace', id: EXAMPLE_ID.workspace, name: 'Acme Bikes', slug: 'acme-bikes' } },
    ),
    environment: oneOf(['live', 'test'] as const),
    scopes: arrayOf(str()),
  },
  {},
  {
    title: 'workspace_context',
    example: {
      object: 'workspace_context',
      workspace: { object: 'workspace', id: EXAMPLE_ID.workspace, name: 'Acme Bikes', slug: 'acme-bikes' },
      environment: 'live',
      scopes: ['customers:read', 'customers:write', 'conversations:read', 'conversations:write'],
    },
  },
);
