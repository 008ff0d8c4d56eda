import { arrayOf, literal, oneOf, str } from '../codec/primitives';
import { struct } from '../codec/struct';

export const ApiResource = struct({ object: literal('api'), name: str(), version: str(), documentation_url: str() }, {}, { title: 'api' });

export const WorkspaceContextResource = struct(
  {
    object: literal('workspace_context'),
    workspace: struct({ object: literal('workspace'), id: str(), name: str(), slug: str() }, {}, { title: 'workspace' }),
    environment: oneOf(['live', 'test'] as const),
    scopes: arrayOf(str()),
  },
  {},
  { title: 'workspace_context' },
);
