import { AGENT_DEFAULTS, applyAgentChanges, AgentSettings } from '@support/domain';
import { Projection } from './projection';

/** One agent configuration per workspace, keyed by the workspace id; absent until the first PATCH. */
export const AGENTS = { name: 'agents' } as const;

export const agentsProjection: Projection = {
  collection: AGENTS,
  handles: ['agent.configured'],
  targets: (e) => (e.type === 'agent.configured' ? [e.data.workspace_id] : []),
  apply(doc, e) {
    if (e.type !== 'agent.configured') return doc;
    const at = e.metadata.occurred_at;
    const current = (doc?.settings as AgentSettings | undefined) ?? AGENT_DEFAULTS;
    return {
      id: e.data.workspace_id,
      workspace_id: e.data.workspace_id,
      settings: applyAgentChanges(current, e.data.changes),
      created_at: doc?.created_at ?? at,
      updated_at: at,
    };
  },
};
