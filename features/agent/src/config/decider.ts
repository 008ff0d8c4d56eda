import * as E from 'fp-ts/Either';
import { CHANNELS } from '@support/conversations';
import { changedFields, Decider, DomainError, fail, isBlank, Plan, tiersOf } from '@support/domain';
import { AgentChanges, AgentEvent, AgentSettings, Escalation, ModelTier } from './events';

/**
 * What GET /agent answers before any PATCH (spec 2.6: "a disabled default"): every channel
 * off, escalation off, the cheapest tier.
 */
export const AGENT_DEFAULTS: AgentSettings = {
  name: 'AI Agent',
  avatar_url: null,
  is_enabled: false,
  tone: 'friendly',
  response_length: 'balanced',
  custom_instructions: null,
  model_tier: 'essential',
  escalation: { enabled: false, keywords: [], after_replies: null },
  deployed_channels: { ...Object.fromEntries(CHANNELS.map((c) => [c, false])), mcp: false },
};

export type AgentState = { workspace_id: string | null; settings: AgentSettings };

/** A PATCH body: every field optional; `escalation` may carry only some of its fields. */
export interface AgentPatch extends Omit<Partial<AgentSettings>, 'escalation' | 'avatar_url'> {
  escalation?: Partial<Escalation>;
}

export type AgentCommand = { type: 'configure'; workspace_id: string; plan: Plan; patch: AgentPatch };

export const applyAgentChanges = (settings: AgentSettings, changes: AgentChanges): AgentSettings => ({ ...settings, ...changes });

/** Length as a person counts it (code points), as the API's schema and its maxLength count. */
const characters = (s: string) => [...s].length;

const checkPatch = (p: AgentPatch, plan: Plan) => {
  if (p.name !== undefined && (isBlank(p.name) || characters(p.name) > 100)) return fail('validation', 'name must be 1 to 100 characters');
  if (p.custom_instructions !== undefined && p.custom_instructions !== null && characters(p.custom_instructions) > 2000) {
    return fail('validation', 'custom_instructions must be at most 2000 characters');
  }
  const after = p.escalation?.after_replies;
  if (after !== undefined && after !== null && !(Number.isInteger(after) && after >= 1 && after <= 10)) {
    return fail('validation', 'escalation.after_replies must be a whole number from 1 to 10, or null');
  }
  if (p.escalation?.keywords?.some(isBlank)) return fail('validation', 'escalation.keywords must not contain blank keywords');
  if (p.model_tier !== undefined && !tiersOf(plan).includes(p.model_tier)) return E.left(planLimitError(p.model_tier, plan));
  return E.right(undefined);
};

/** A model tier the workspace's plan does not include (403 PLAN_LIMIT_REACHED). */
export const planLimitError = (tier: ModelTier, plan: Plan): DomainError => ({
  kind: 'plan_limit',
  message: `The ${plan} plan does not include the ${tier} model tier (it includes: ${tiersOf(plan).join(', ') || 'none'}).`,
  details: { model_tier: tier, plan },
});

/**
 * The agent configuration of a workspace (stream `agent-<workspace id>`). A PATCH changes only
 * the fields given; `deployed_channels` and `escalation` are merged key by key; enabling the MCP
 * server also turns the API channel on (spec 4.3 rule 5). A rejected PATCH records nothing.
 */
export const agentDecider: Decider<AgentCommand, AgentEvent, AgentState> = {
  initialState: { workspace_id: null, settings: AGENT_DEFAULTS },
  decide(command, state) {
    const { patch } = command;
    const invalid = checkPatch(patch, command.plan);
    if (E.isLeft(invalid)) return invalid;
    const current = state.settings;
    const deployed = patch.deployed_channels ? { ...current.deployed_channels, ...patch.deployed_channels } : undefined;
    if (deployed?.mcp === true && patch.deployed_channels?.mcp === true) deployed.api = true;
    const { escalation: _escalation, deployed_channels: _deployed, ...plain } = patch;
    const requested: Partial<AgentSettings> = {
      ...plain,
      ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
      ...(patch.escalation
        ? {
            escalation: {
              ...current.escalation,
              ...patch.escalation,
              ...(patch.escalation.keywords ? { keywords: [...new Set(patch.escalation.keywords.map((k) => k.trim()))] } : {}),
            },
          }
        : {}),
      ...(deployed ? { deployed_channels: deployed } : {}),
    };
    const changes = changedFields(current, requested);
    // The first PATCH records the configuration even when it equals the default.
    if (Object.keys(changes).length === 0 && state.workspace_id !== null) return E.right([]);
    return E.right([{ type: 'agent.configured', data: { workspace_id: command.workspace_id, changes } }]);
  },
  evolve: (state, event) => ({ workspace_id: event.data.workspace_id, settings: applyAgentChanges(state.settings, event.data.changes) }),
};
