import type { AgentSettings } from '../config/events';
import type { EventStore, Position } from '@support/eventstore';
import { conversationStream } from '@support/conversations';
import type { TurnResult } from './turn-io';

interface Replied {
  message_ids: string[];
  credits_used: number;
  model_tier: AgentSettings['model_tier'];
  sources: string[];
}

/**
 * The turn a request under this Idempotency-Key already recorded in its conversation, as the
 * log holds it: its reply bubbles, sources, charge and hand-over. Quick replies, buttons and
 * images are not events, so a retry whose first answer was lost gets them empty.
 */
export const recordedTurn = async (
  events: EventStore,
  conversationId: string,
  key: string,
  tier: AgentSettings['model_tier'],
  position: Position,
): Promise<TurnResult> => {
  const recorded = (await events.readStream(conversationStream(conversationId), 0)).filter(
    (r) => (r.metadata as { idempotency_key?: unknown } | null)?.idempotency_key === key,
  );
  const replied = recorded.find((r) => r.type === 'agent.replied')?.data as Replied | undefined;
  const escalated = recorded.find((r) => r.type === 'agent.escalated')?.data as { reason: TurnResult['escalation_reason'] } | undefined;
  // The turn's reply bubbles, or its hand-over bubble: the agent's messages of this request.
  const messages = recorded
    .filter((r) => r.type === 'message.created' && (r.data as { sender_type: string }).sender_type === 'ai')
    .map((r) => (r.data as { content: string }).content);
  return {
    conversation_id: conversationId,
    messages,
    quick_replies: [],
    buttons: [],
    images: [],
    sources: replied?.sources ?? [],
    escalated: escalated !== undefined,
    escalation_reason: escalated?.reason ?? null,
    credits_used: replied?.credits_used ?? 0,
    model_tier: replied?.model_tier ?? tier,
    position,
  };
};
