import type { Metrics } from '@support/application';
import { ESCALATION_REASONS } from '@support/conversations';
import { MODEL_TIERS } from '../config/events';

/** The agent's series: turns by what came of them, hand-overs by reason, credits by tier. */
export const agentMetrics = (m: Metrics) => ({
  turns: m.counterOf('support_agent_turns_total', 'Agent turns answered, by result (replied, escalated, no_reply)', 'result', [
    'replied',
    'escalated',
    'no_reply',
  ]),
  escalations: m.counterOf('support_agent_escalations_total', 'Conversations the agent handed to a human, by reason', 'reason', ESCALATION_REASONS),
  charged: m.counterOf('support_agent_credits_charged_total', 'AI credits charged for replies, by the model tier that answered', 'tier', MODEL_TIERS),
  refunded: m.counterOf('support_agent_credits_refunded_total', 'AI credits refunded (a reply that was not recorded), by tier', 'tier', MODEL_TIERS),
  seconds: m.histogram('support_agent_turn_duration_seconds', 'Time to decide, charge and record one turn'),
});
export type AgentMetrics = ReturnType<typeof agentMetrics>;
