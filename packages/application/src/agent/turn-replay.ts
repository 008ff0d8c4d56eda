import type { AgentSettings } from '@support/domain';
import type { EventStore, Position } from '@support/eventstore';
import { conversationStream } from '../commands/conversations';
import type { TurnResult } from './turns';

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
  const bubbles = new Set(replied?.message_ids ?? []);
  const messages = recorded
    .filter((r) => r.type === 'message.created' && bubbles.has((r.data as { id: string }).id))
    .map((r) => (r.data as { content: string }).content);
  return {
    conversation_id: conversationId,
    messages,
    quick_replies: [],
    buttons: [],
    images: [],
    sources: replied?.sources ?? [],
    escalated: recorded.some((r) => r.type === 'agent.escalated'),
    credits_used: replied?.credits_used ?? 0,
    model_tier: replied?.model_tier ?? tier,
    position,
  };
};
