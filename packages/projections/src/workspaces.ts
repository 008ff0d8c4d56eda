import { aggregateId, Projection } from './projection';

/** The SLA monitor lists the workspaces that track SLAs. */
export const WORKSPACES = { name: 'workspaces', indexes: [['sla_tracking']] } as const;

export const workspacesProjection: Projection = {
  collection: WORKSPACES,
  handles: ['workspace.created', 'workspace.updated', 'workspace.credits_charged', 'workspace.credits_refunded'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'workspace.created':
        return { ...e.data, workspace_id: e.data.id, created_at: at, updated_at: at };
      case 'workspace.updated':
        return doc && { ...doc, ...e.data, updated_at: at };
      // The AI credit balance follows every charge and refund.
      case 'workspace.credits_charged':
        return doc && { ...doc, credits: (doc.credits as number) - e.data.amount, updated_at: at };
      case 'workspace.credits_refunded':
        return doc && { ...doc, credits: (doc.credits as number) + e.data.amount, updated_at: at };
      default:
        return doc;
    }
  },
};
