import * as t from 'io-ts';
import type { Feature } from '@support/application';
import { ApiKeyEvent } from './key-events';
import { apiKeysProjection } from './key-projection';
import { WorkspaceEvent } from './workspace-events';
import { workspacesProjection } from './workspace-projection';

/** What the processes compose (@support/catalog): the workspaces' and keys' events and read models. */
export const workspacesFeature: Feature = {
  events: t.union([...WorkspaceEvent.types, ...ApiKeyEvent.types]),
  projections: [workspacesProjection, apiKeysProjection],
  imports: [],
};
