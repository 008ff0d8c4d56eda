import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail } from '../decider';
import { ConversationChanges, ConversationEvent, MessageData } from './events';

type Created = Extract<ConversationEvent, { type: 'conversation.created' }>['data'];
export type ConversationState =
  | { exists: false }
  | ({ exists: true; resolved_at: string | null; message_count: number; clientMessageIds: Readonly<Record<string, string>> } & Created);

export type ConversationCommand =
  | ({ type: 'create' } & Omit<Created, 'status' | 'assignee' | 'tags' | 'priority'>)
  /** `at`: the command's time, for resolved_at (deciders have no clock). */
  | { type: 'update'; workspace_id: string; at: string; changes: { status?: 'open' | 'closed' | 'resolved'; priority?: Created['priority']; tags?: string[]; assignee?: string | null } }
  | ({ type: 'post_message'; workspace_id: string } & Pick<MessageData, 'id' | 'sender_type' | 'sender_id' | 'content' | 'visibility' | 'attachments' | 'channel_metadata' | 'client_message_id'>);

const dedupe = (tags: readonly string[]) => [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];

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
    if (command.type === 'post_message') {
      if (command.content.trim() === '') return fail('validation', 'content must not be blank');
      // The caller's own id makes a retried post harmless: the first message stands.
      if (command.client_message_id !== null && state.clientMessageIds[command.client_message_id]) return E.right([]);
      const { type: _type, workspace_id: _ws, ...message } = command;
      return E.right([{
        type: 'message.created',
        data: {
          ...message, conversation_id: state.id, workspace_id: state.workspace_id, customer_id: state.customer_id,
          ticket_id: null, channel: state.channel, external_id: null, is_read: command.sender_type !== 'customer',
        },
      }]);
    }
    // `resolved` is the legacy spelling of `closed`.
    const status = command.changes.status === 'resolved' ? 'closed' : command.changes.status;
    const requested: ConversationChanges = { ...command.changes, status, ...(command.changes.tags ? { tags: dedupe(command.changes.tags) } : {}) };
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
      case 'conversation.created': return { exists: true, ...event.data, resolved_at: null, message_count: 0, clientMessageIds: {} };
      case 'conversation.updated': return state.exists ? { ...state, ...event.data.changes } : state;
      case 'conversation.closed': return state;
      case 'message.created': {
        if (!state.exists) return state;
        const { client_message_id: clientId, id } = event.data;
        return { ...state, message_count: state.message_count + 1, clientMessageIds: clientId ? { ...state.clientMessageIds, [clientId]: id } : state.clientMessageIds };
      }
    }
  },
};
