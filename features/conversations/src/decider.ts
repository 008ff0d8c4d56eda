import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail, isBlank, uniqueTags } from '@support/domain';
import { ConversationChanges, ConversationEvent, ESCALATION_REASONS, MessageData } from './events';

type Created = Extract<ConversationEvent, { type: 'conversation.created' }>['data'];
export type ConversationState =
  | { exists: false }
  | ({
      exists: true;
      resolved_at: string | null;
      message_count: number;
      clientMessageIds: Readonly<Record<string, string>>;
      /** The agent handed over; it stays silent until the conversation is assigned to `ai` again. */
      escalated: boolean;
      /** AI turns that replied (for `escalation.after_replies`). */
      ai_replies: number;
    } & Created);

type NewMessage = Pick<MessageData, 'id' | 'sender_type' | 'sender_id' | 'content' | 'visibility' | 'attachments' | 'channel_metadata' | 'client_message_id'>;

/** What the agent decided for a turn, before the conversation's own rules have their say. */
export type TurnOutcome =
  | {
      kind: 'reply';
      turn_id: string;
      replies: { id: string; content: string }[];
      credits_used: number;
      model_tier: 'essential' | 'pro' | 'ultra';
      sources: string[];
    }
  /** `handoff`: the bubble telling the customer a person takes over (free). */
  | {
      kind: 'escalate';
      turn_id: string;
      reason: (typeof ESCALATION_REASONS)[number];
      keyword: string | null;
      handoff: { id: string; content: string } | null;
    }
  | { kind: 'none' };

export type ConversationCommand =
  | ({ type: 'create' } & Omit<Created, 'status' | 'assignee' | 'tags' | 'priority'>)
  /** `at`: the command's time, for resolved_at (deciders have no clock). */
  | {
      type: 'update';
      workspace_id: string;
      at: string;
      changes: { status?: 'open' | 'closed' | 'resolved'; priority?: Created['priority']; tags?: string[]; assignee?: string | null };
    }
  | ({ type: 'post_message'; workspace_id: string } & NewMessage)
  /** One agent turn: the customer's message, then the agent's reply or hand-over. */
  | { type: 'agent_turn'; workspace_id: string; customer_message: { id: string; content: string; attachments: unknown[] }; outcome: TurnOutcome }
  | { type: 'link_customer'; workspace_id: string; customer_id: string; customer_name: string | null; customer_email: string | null };

/**
 * The AI may answer while the conversation is assigned to it, or unassigned and never handed
 * over; a human assignee, or an escalation not yet undone, keeps it silent.
 */
export const aiMayReply = (state: ConversationState): boolean => state.exists && (state.assignee === 'ai' || (state.assignee === null && !state.escalated));

const messageEvent = (state: Extract<ConversationState, { exists: true }>, message: NewMessage): ConversationEvent => ({
  type: 'message.created',
  data: {
    ...message,
    conversation_id: state.id,
    workspace_id: state.workspace_id,
    customer_id: state.customer_id,
    ticket_id: null,
    channel: state.channel,
    external_id: null,
    is_read: message.sender_type !== 'customer',
  },
});

const agentTurn = (state: Extract<ConversationState, { exists: true }>, command: Extract<ConversationCommand, { type: 'agent_turn' }>) => {
  if (state.channel !== 'api')
    return fail('validation', `conversation ${state.id} is on the ${state.channel} channel; the agent answers over the API only on api conversations`);
  const { customer_message: m, outcome } = command;
  if (isBlank(m.content)) return fail('validation', 'message must not be blank');
  const events: ConversationEvent[] = [];
  // A customer writing again reopens a closed conversation.
  if (state.status === 'closed') events.push({ type: 'conversation.updated', data: { id: state.id, changes: { status: 'open', resolved_at: null } } });
  events.push(
    messageEvent(state, {
      id: m.id,
      sender_type: 'customer',
      sender_id: state.customer_id,
      content: m.content,
      visibility: 'public',
      attachments: m.attachments,
      channel_metadata: {},
      client_message_id: null,
    }),
  );
  // A human who took the conversation over mid-turn wins: the decided reply is dropped.
  if (!aiMayReply(state)) return E.right(events);
  if (outcome.kind === 'reply') {
    for (const reply of outcome.replies) {
      events.push(
        messageEvent(state, {
          id: reply.id,
          sender_type: 'ai',
          sender_id: null,
          content: reply.content,
          visibility: 'public',
          attachments: [],
          channel_metadata: {},
          client_message_id: null,
        }),
      );
    }
    const { turn_id, credits_used, model_tier, sources } = outcome;
    events.push({
      type: 'agent.replied',
      data: { conversation_id: state.id, turn_id, message_ids: outcome.replies.map((r) => r.id), credits_used, model_tier, sources },
    });
  }
  if (outcome.kind === 'escalate') {
    if (outcome.handoff)
      events.push(
        messageEvent(state, {
          id: outcome.handoff.id,
          sender_type: 'ai',
          sender_id: null,
          content: outcome.handoff.content,
          visibility: 'public',
          attachments: [],
          channel_metadata: {},
          client_message_id: null,
        }),
      );
    if (state.assignee !== null) events.push({ type: 'conversation.updated', data: { id: state.id, changes: { assignee: null } } });
    const { turn_id, reason, keyword, handoff } = outcome;
    events.push({ type: 'agent.escalated', data: { id: state.id, reason, keyword, turn_id, message_ids: handoff ? [handoff.id] : [] } });
  }
  return E.right(events);
};

export const conversationDecider: Decider<ConversationCommand, ConversationEvent, ConversationState> = {
  initialState: { exists: false },
  decide(command, state) {
    if (command.type === 'create') {
      if (state.exists) return fail('conflict', `conversation ${command.id} already exists`);
      const { type: _type, ...data } = command;
      return E.right([{ type: 'conversation.created', data: { ...data, status: 'open', priority: 'normal', assignee: null, tags: [] } }]);
    }
    // Another workspace's conversation does not exist for this caller.
    if (!state.exists || state.workspace_id !== command.workspace_id) return fail('not_found', 'conversation not found');
    if (command.type === 'agent_turn') return agentTurn(state, command);
    if (command.type === 'link_customer') {
      const { customer_id, customer_name, customer_email } = command;
      const changes = changedFields(state, { customer_id, customer_name, customer_email }) as ConversationChanges;
      return E.right(Object.keys(changes).length ? [{ type: 'conversation.updated', data: { id: state.id, changes } }] : []);
    }
    if (command.type === 'post_message') {
      if (isBlank(command.content)) return fail('validation', 'content must not be blank');
      // The caller's own id makes a retried post harmless: the first message stands.
      if (command.client_message_id !== null && firstMessageWith(state, command.client_message_id) !== null) return E.right([]);
      const { type: _type, workspace_id: _ws, ...message } = command;
      return E.right([messageEvent(state, message)]);
    }
    // `resolved` is the legacy spelling of `closed`.
    const status = command.changes.status === 'resolved' ? 'closed' : command.changes.status;
    const requested: ConversationChanges = { ...command.changes, status, ...(command.changes.tags ? { tags: uniqueTags(command.changes.tags) } : {}) };
    const changes = changedFields(state, requested) as ConversationChanges;
    if (changes.status === 'closed') changes.resolved_at = command.at;
    if (changes.status === 'open') changes.resolved_at = null;
    if (Object.keys(changes).length === 0) return E.right([]);
    const events: ConversationEvent[] = [{ type: 'conversation.updated', data: { id: state.id, changes } }];
    if (changes.status === 'closed') events.push({ type: 'conversation.closed', data: { id: state.id, resolved_at: command.at } });
    return E.right(events);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'conversation.created':
        return { exists: true, ...event.data, resolved_at: null, message_count: 0, clientMessageIds: {}, escalated: false, ai_replies: 0 };
      case 'conversation.updated': {
        if (!state.exists) return state;
        // Assigning the conversation back to the AI undoes a hand-over.
        return { ...state, ...event.data.changes, escalated: event.data.changes.assignee === 'ai' ? false : state.escalated };
      }
      case 'conversation.closed':
        return state;
      case 'message.created': {
        if (!state.exists) return state;
        const { client_message_id: clientId, id } = event.data;
        return {
          ...state,
          message_count: state.message_count + 1,
          clientMessageIds: clientId ? { ...state.clientMessageIds, [clientId]: id } : state.clientMessageIds,
        };
      }
      case 'agent.replied':
        return state.exists ? { ...state, ai_replies: state.ai_replies + 1 } : state;
      case 'agent.escalated':
        return state.exists ? { ...state, escalated: true } : state;
    }
  },
};

/**
 * The message a caller's `client_message_id` first posted, if any. Own keys only: an id such as
 * "toString" or "__proto__" is the caller's, not the object's (they read as already posted).
 */
export const firstMessageWith = (state: ConversationState, clientMessageId: string): string | null =>
  state.exists && Object.hasOwn(state.clientMessageIds, clientMessageId) ? state.clientMessageIds[clientMessageId] : null;
