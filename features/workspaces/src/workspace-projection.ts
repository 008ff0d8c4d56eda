import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { WorkspaceEvent } from './workspace-events';

/** The SLA monitor lists the workspaces that track SLAs. */
export const WORKSPACES = { name: 'workspaces', indexes: [['sla_tracking']] } as const;

type Created = Extract<WorkspaceEvent, { type: 'workspace.created' }>['data'];

/** A workspace as the read model holds it: what it was created with, as updated, and its credit balance. */
export type WorkspaceDocument = Doc & Created & { workspace_id: string; created_at: string; updated_at: string };

export const workspacesProjection: Projection<WorkspaceDocument, WorkspaceEvent> = {
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
        return doc && { ...doc, credits: doc.credits - e.data.amount, updated_at: at };
      case 'workspace.credits_refunded':
        return doc && { ...doc, credits: doc.credits + e.data.amount, updated_at: at };
      default:
        return doc;
    }
  },
};
