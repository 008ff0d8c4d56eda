import type { Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import { AGENT_DEFAULTS, applyAgentChanges } from './decider';
import type { AgentEvent, AgentSettings } from './events';

/** One agent configuration per workspace, keyed by the workspace id; absent until the first PATCH. */
export const AGENTS = { name: 'agents' } as const;

/** A workspace's agent configuration, keyed by the workspace id. */
export type AgentDocument = Doc & { workspace_id: string; settings: AgentSettings; created_at: string; updated_at: string };

export const agentsProjection: Projection<AgentDocument, AgentEvent> = {
  collection: AGENTS,
  handles: ['agent.configured'],
  targets: (e) => (e.type === 'agent.configured' ? [e.data.workspace_id] : []),
  apply(doc, e) {
    if (e.type !== 'agent.configured') return doc;
    const at = e.metadata.occurred_at;
    const current = doc?.settings ?? AGENT_DEFAULTS;
    return {
      id: e.data.workspace_id,
      workspace_id: e.data.workspace_id,
      settings: applyAgentChanges(current, e.data.changes),
      created_at: doc?.created_at ?? at,
      updated_at: at,
    };
  },
};
