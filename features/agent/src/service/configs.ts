import type { Plan } from '@support/domain';
import { AGENT_DEFAULTS, AgentCommand, agentDecider, AgentPatch, AgentState } from '../config/decider';
import { AgentEvent, AgentSettings } from '../config/events';
import { Aggregate, CommandContext, Deps, execute, load } from '@support/application';

export const agentAggregate: Aggregate<AgentCommand, AgentEvent, AgentState> = { decider: agentDecider, codec: AgentEvent };
export const agentStream = (workspaceId: string) => `agent-${workspaceId}`;

/** The agent configuration: one event-sourced aggregate per workspace. */
export class AgentConfigs {
  constructor(private readonly deps: Deps) {}

  async configure(ctx: CommandContext & { workspaceId: string }, plan: Plan, patch: AgentPatch) {
    const outcome = await execute(this.deps, ctx, agentAggregate, agentStream(ctx.workspaceId), {
      type: 'configure',
      workspace_id: ctx.workspaceId,
      plan,
      patch,
    });
    return { position: outcome.position, settings: outcome.state.settings };
  }

  /** The configuration as a turn must obey it: from the stream, never a lagging read model. */
  async current(workspaceId: string): Promise<AgentSettings> {
    const { state } = await load(this.deps, agentAggregate, agentStream(workspaceId));
    return state.workspace_id === null ? AGENT_DEFAULTS : state.settings;
  }
}
