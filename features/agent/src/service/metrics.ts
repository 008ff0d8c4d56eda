import type { Metrics } from '@support/application';

/** The agent's series: turns by what came of them, hand-overs by reason, credits by tier. */
export const agentMetrics = (m: Metrics) => ({
  turns: m.counter('support_agent_turns_total', 'Agent turns answered, by result (replied, escalated, no_reply)', ['result']),
  escalations: m.counter('support_agent_escalations_total', 'Conversations the agent handed to a human, by reason', ['reason']),
  charged: m.counter('support_agent_credits_charged_total', 'AI credits charged for replies, by the model tier that answered', ['tier']),
  refunded: m.counter('support_agent_credits_refunded_total', 'AI credits refunded (a reply that was not recorded), by tier', ['tier']),
  seconds: m.histogram('support_agent_turn_duration_seconds', 'Time to decide, charge and record one turn'),
});
export type AgentMetrics = ReturnType<typeof agentMetrics>;
