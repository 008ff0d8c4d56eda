import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const CHANNELS = ['api', 'widget', 'whatsapp', 'facebook', 'instagram', 'telegram'] as const;
export const ConversationChannel = t.keyof({ api: null, widget: null, whatsapp: null, facebook: null, instagram: null, telegram: null });
export type ConversationChannel = t.TypeOf<typeof ConversationChannel>;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const Priority = t.keyof({ low: null, normal: null, high: null, urgent: null });
export const ConversationStatus = t.keyof({ open: null, closed: null });

export const ConversationCreated = eventCodec(
  'conversation.created',
  t.type({
    id: t.string,
    workspace_id: t.string,
    channel: ConversationChannel,
    channel_id: nullable(t.string),
    customer_id: nullable(t.string),
    customer_name: nullable(t.string),
    customer_email: nullable(t.string),
    external_id: nullable(t.string),
    metadata: t.UnknownRecord,
    status: ConversationStatus,
    priority: Priority,
    assignee: nullable(t.string),
    tags: t.array(t.string),
  }),
);

export const ConversationChanges = t.partial({
  status: ConversationStatus,
  priority: Priority,
  tags: t.array(t.string),
  assignee: nullable(t.string),
  resolved_at: nullable(t.string),
  /** Set when the agent links a lead it captured to a conversation that had no customer. */
  customer_id: nullable(t.string),
  customer_name: nullable(t.string),
  customer_email: nullable(t.string),
});
export type ConversationChanges = t.TypeOf<typeof ConversationChanges>;

export const ConversationUpdated = eventCodec('conversation.updated', t.type({ id: t.string, changes: ConversationChanges }));
export const ConversationClosed = eventCodec('conversation.closed', t.type({ id: t.string, resolved_at: t.string }));

/** A message belongs to its conversation's stream: order and client-id dedup are per conversation. */
export const MessageCreated = eventCodec(
  'message.created',
  t.type({
    id: t.string,
    conversation_id: t.string,
    workspace_id: t.string,
    customer_id: nullable(t.string),
    ticket_id: nullable(t.string),
    sender_type: t.keyof({ customer: null, agent: null, ai: null, system: null }),
    sender_id: nullable(t.string),
    content: t.string,
    visibility: t.keyof({ public: null, internal: null }),
    channel: ConversationChannel,
    external_id: nullable(t.string),
    attachments: t.array(t.unknown),
    channel_metadata: t.UnknownRecord,
    client_message_id: nullable(t.string),
    is_read: t.boolean,
  }),
);
export type MessageData = t.TypeOf<typeof MessageCreated>['data'];

/** One AI turn that replied: what it cost and what it cited (the reply bubbles are its messages). */
export const AgentReplied = eventCodec(
  'agent.replied',
  t.type({
    conversation_id: t.string,
    turn_id: t.string,
    message_ids: t.array(t.string),
    credits_used: t.number,
    model_tier: t.keyof({ essential: null, pro: null, ultra: null }),
    sources: t.array(t.string),
  }),
);
export const ESCALATION_REASONS = ['keyword', 'after_replies', 'no_answer', 'customer_asked'] as const;
/**
 * The agent handed the conversation to a human (spec 6.1 `agent.escalated`). `turn_id` (the
 * turn's, as `agent.replied` names one) and `message_ids` (the hand-over bubble, when one was
 * sent) are in every escalation recorded since 2026-11-28; older ones lack them.
 */
export const AgentEscalated = eventCodec(
  'agent.escalated',
  t.intersection([
    t.type({
      id: t.string,
      reason: t.keyof({ keyword: null, after_replies: null, no_answer: null, customer_asked: null }),
      keyword: nullable(t.string),
    }),
    t.partial({ turn_id: t.string, message_ids: t.array(t.string) }),
  ]),
);

export const ConversationEvent = t.union([ConversationCreated, ConversationUpdated, ConversationClosed, MessageCreated, AgentReplied, AgentEscalated]);
export type ConversationEvent = t.TypeOf<typeof ConversationEvent>;
