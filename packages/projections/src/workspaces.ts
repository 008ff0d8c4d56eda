import { aggregateId, Projection } from './projection';

export const WORKSPACES = { name: 'workspaces' } as const;

export const workspacesProjection: Projection = {
  collection: WORKSPACES,
  handles: ['workspace.created', 'workspace.updated'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'workspace.created': return { ...e.data, workspace_id: e.data.id, created_at: at, updated_at: at };
      case 'workspace.updated': return doc && { ...doc, ...e.data, updated_at: at };
      default: return doc;
    }
  },
};
