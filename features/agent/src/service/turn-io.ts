import { ESCALATION_REASONS } from '@support/conversations';
import type { Position } from '@support/eventstore';
import type { AgentSettings } from '../config/events';
import type { CustomerInput } from '@support/customers';

export type EscalationReason = (typeof ESCALATION_REASONS)[number];

/** What a turn is asked (POST /agent/messages, MCP's send_message). */
export interface TurnInput {
  message: string;
  conversation_id?: string;
  customer?: CustomerInput;
  attachments?: unknown[];
}

/** Spec 2.7 without `object`, plus the position to settle on before answering. */
export interface TurnResult {
  conversation_id: string;
  messages: string[];
  quick_replies: string[];
  buttons: { text: string; url: string }[];
  images: string[];
  sources: string[];
  escalated: boolean;
  /** Why the agent handed over in this turn, or null. */
  escalation_reason: EscalationReason | null;
  credits_used: number;
  model_tier: AgentSettings['model_tier'];
  position: Position | null;
}
