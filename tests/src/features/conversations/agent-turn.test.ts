import t from 'tap';
import { conversationDecider, ConversationEvent, TurnOutcome } from '@support/conversations';
import { spec } from '../../support/decider-spec';
import { messageData } from '../../support/events';

const given = spec(conversationDecider);
const created = (over: object = {}): ConversationEvent => ({
  type: 'conversation.created',
  data: {
    id: 'conv_1',
    workspace_id: 'ws_1',
    channel: 'api',
    channel_id: null,
    customer_id: 'cus_1',
    customer_name: null,
    customer_email: null,
    external_id: null,
    metadata: {},
    status: 'open',
    priority: 'normal',
    assignee: null,
    tags: [],
    ...over,
  },
});
const msg = (id: string, sender: 'customer' | 'ai', content: string): ConversationEvent => ({
  type: 'message.created',
  data: messageData(id, { sender_type: sender, sender_id: sender === 'customer' ? 'cus_1' : null, content, is_read: sender !== 'customer' }),
});
const reply: TurnOutcome = {
  kind: 'reply',
  turn_id: 'turn_1',
  replies: [{ id: 'msg_2', content: 'Hi!' }],
  credits_used: 1,
  model_tier: 'essential',
  sources: ['Refunds'],
};
const turn = (outcome: TurnOutcome, over: object = {}) => ({
  type: 'agent_turn' as const,
  workspace_id: 'ws_1',
  customer_message: { id: 'msg_1', content: 'How do refunds work?', attachments: [] },
  outcome,
  ...over,
});
const replied: ConversationEvent = {
  type: 'agent.replied',
  data: { conversation_id: 'conv_1', turn_id: 'turn_1', message_ids: ['msg_2'], credits_used: 1, model_tier: 'essential', sources: ['Refunds'] },
};
const assigned = (assignee: string | null): ConversationEvent => ({ type: 'conversation.updated', data: { id: 'conv_1', changes: { assignee } } });
const escalated = (reason: 'keyword' | 'after_replies' | 'no_answer' | 'customer_asked', keyword: string | null = null): ConversationEvent => ({
  type: 'agent.escalated',
  data: { id: 'conv_1', reason, keyword },
});

t.test('a reply turn records the customer message, the reply bubbles and what the turn cost, in one append', async (t) =>
  given([created()])
    .when(turn(reply))
    .then(t, [msg('msg_1', 'customer', 'How do refunds work?'), msg('msg_2', 'ai', 'Hi!'), replied]),
);

t.test('a human assignee keeps the agent silent: only the customer message is recorded', async (t) =>
  given([created(), assigned('user_7')])
    .when(turn(reply))
    .then(t, [msg('msg_1', 'customer', 'How do refunds work?')]),
);

t.test('escalation: the hand-over bubble, the assignee leaves ai and agent.escalated is recorded with its turn and bubble', async (t) =>
  given([created(), assigned('ai')])
    .when(turn({ kind: 'escalate', turn_id: 'turn_1', reason: 'keyword', keyword: 'human', handoff: { id: 'msg_2', content: 'A person takes over.' } }))
    .then(t, [
      msg('msg_1', 'customer', 'How do refunds work?'),
      msg('msg_2', 'ai', 'A person takes over.'),
      assigned(null),
      { type: 'agent.escalated', data: { id: 'conv_1', reason: 'keyword', keyword: 'human', turn_id: 'turn_1', message_ids: ['msg_2'] } },
    ]),
);

t.test('escalation because the customer asked, without a bubble: the reason is recorded', async (t) =>
  given([created()])
    .when(turn({ kind: 'escalate', turn_id: 'turn_1', reason: 'customer_asked', keyword: null, handoff: null }))
    .then(t, [
      msg('msg_1', 'customer', 'How do refunds work?'),
      { type: 'agent.escalated', data: { id: 'conv_1', reason: 'customer_asked', keyword: null, turn_id: 'turn_1', message_ids: [] } },
    ]),
);

t.test('after an escalation the agent stays silent, until the conversation is assigned to ai again', async (t) => {
  const history = [created(), escalated('no_answer')];
  given(history)
    .when(turn(reply))
    .then(t, [msg('msg_1', 'customer', 'How do refunds work?')]);
  given([...history, assigned('user_1')])
    .when(turn(reply))
    .then(t, [msg('msg_1', 'customer', 'How do refunds work?')]);
  given([...history, assigned('ai')])
    .when(turn(reply))
    .then(t, [msg('msg_1', 'customer', 'How do refunds work?'), msg('msg_2', 'ai', 'Hi!'), replied]);
});

t.test('a conversation of another channel is refused as a validation error', async (t) =>
  given([created({ channel: 'widget' })])
    .when(turn(reply))
    .thenFails(t, 'validation', /widget/),
);

t.test("another workspace's conversation does not exist", async (t) =>
  given([created()])
    .when(turn(reply, { workspace_id: 'ws_2' }))
    .thenFails(t, 'not_found'),
);

t.test('a customer writing to a closed conversation reopens it', async (t) =>
  given([created({ status: 'closed' })])
    .when(turn({ kind: 'none' }))
    .then(t, [
      { type: 'conversation.updated', data: { id: 'conv_1', changes: { status: 'open', resolved_at: null } } },
      msg('msg_1', 'customer', 'How do refunds work?'),
    ]),
);

t.test('the AI reply count follows agent.replied (for after_replies)', async (t) => {
  const state = [created(), replied, replied].reduce(conversationDecider.evolve, conversationDecider.initialState);
  t.equal(state.exists && state.ai_replies, 2);
});

t.test('a lead linked to a conversation without a customer', async (t) =>
  given([created({ customer_id: null })])
    .when({ type: 'link_customer', workspace_id: 'ws_1', customer_id: 'cus_9', customer_name: null, customer_email: 'a@b.io' })
    .then(t, [{ type: 'conversation.updated', data: { id: 'conv_1', changes: { customer_id: 'cus_9', customer_email: 'a@b.io' } } }]),
);
