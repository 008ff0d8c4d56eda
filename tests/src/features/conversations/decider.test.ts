import t from 'tap';
import { conversationDecider, ConversationEvent } from '@support/conversations';
import { spec } from '../../support/decider-spec';
import { messageData } from '../../support/events';

const given = spec(conversationDecider);
const created: ConversationEvent = {
  type: 'conversation.created',
  data: {
    id: 'conv_1',
    workspace_id: 'ws_1',
    channel: 'api',
    channel_id: null,
    customer_id: 'cus_1',
    customer_name: 'Ann',
    customer_email: 'a@x.io',
    external_id: null,
    metadata: {},
    status: 'open',
    priority: 'normal',
    assignee: null,
    tags: [],
  },
};
const at = '2026-01-02T03:04:05.000Z';
const update = (changes: object) => ({ type: 'update' as const, workspace_id: 'ws_1', at, changes });
const message = (over: object = {}) => ({
  type: 'post_message' as const,
  workspace_id: 'ws_1',
  id: 'msg_1',
  sender_type: 'agent' as const,
  sender_id: 'key_1',
  content: 'Hello',
  visibility: 'public' as const,
  attachments: [],
  channel_metadata: {},
  client_message_id: null,
  ...over,
});
const messageCreated = (id: string, clientId: string | null): ConversationEvent => ({
  type: 'message.created',
  data: messageData(id, { sender_id: 'key_1', client_message_id: clientId, is_read: true }),
});

t.test('a conversation starts open, normal priority, unassigned', async (t) => {
  const { status: _s, priority: _p, assignee: _a, tags: _t, ...data } = created.data;
  given([])
    .when({ type: 'create', ...data })
    .then(t, [created]);
});
t.test('closing records conversation.updated with resolved_at, then conversation.closed', async (t) =>
  given([created])
    .when(update({ status: 'closed' }))
    .then(t, [
      { type: 'conversation.updated', data: { id: 'conv_1', changes: { status: 'closed', resolved_at: at } } },
      { type: 'conversation.closed', data: { id: 'conv_1', resolved_at: at } },
    ]),
);
t.test('`resolved` is the legacy spelling of closed', async (t) =>
  given([created])
    .when(update({ status: 'resolved' }))
    .then(t, [
      { type: 'conversation.updated', data: { id: 'conv_1', changes: { status: 'closed', resolved_at: at } } },
      { type: 'conversation.closed', data: { id: 'conv_1', resolved_at: at } },
    ]),
);
t.test('reopening clears resolved_at and is only an update', async (t) => {
  const closed: ConversationEvent = { type: 'conversation.updated', data: { id: 'conv_1', changes: { status: 'closed', resolved_at: at } } };
  given([created, closed])
    .when(update({ status: 'open' }))
    .then(t, [{ type: 'conversation.updated', data: { id: 'conv_1', changes: { status: 'open', resolved_at: null } } }]);
  given([created, closed])
    .when(update({ status: 'resolved' }))
    .then(t, [], 'closing a closed conversation changes nothing');
});
t.test('priority, tags and assignee; unchanged values record nothing', async (t) => {
  given([created])
    .when(update({ priority: 'urgent', tags: ['a', 'a', 'b'], assignee: 'ai' }))
    .then(t, [{ type: 'conversation.updated', data: { id: 'conv_1', changes: { priority: 'urgent', tags: ['a', 'b'], assignee: 'ai' } } }]);
  given([created])
    .when(update({ priority: 'normal', assignee: null }))
    .then(t, []);
});
t.test("another workspace's conversation does not exist", async (t) => {
  given([created])
    .when({ ...update({ priority: 'low' }), workspace_id: 'ws_2' })
    .thenFails(t, 'not_found');
  given([created])
    .when(message({ workspace_id: 'ws_2' }))
    .thenFails(t, 'not_found');
  given([]).when(message()).thenFails(t, 'not_found');
});
t.test("a message is recorded with the conversation's channel and customer", async (t) =>
  given([created])
    .when(message())
    .then(t, [messageCreated('msg_1', null)]),
);
t.test('a repeated client_message_id records nothing', async (t) => {
  given([created, messageCreated('msg_1', 'c-1')])
    .when(message({ id: 'msg_2', client_message_id: 'c-1' }))
    .then(t, []);
  given([created, messageCreated('msg_1', 'c-1')])
    .when(message({ id: 'msg_2', client_message_id: 'c-2' }))
    .then(t, [messageCreated('msg_2', 'c-2')]);
});
t.test("a client_message_id named like an object's property is recorded the first time", async (t) => {
  given([created, messageCreated('msg_1', 'c-1')])
    .when(message({ id: 'msg_2', client_message_id: 'toString' }))
    .then(t, [messageCreated('msg_2', 'toString')]);
  given([created, messageCreated('msg_1', '__proto__')])
    .when(message({ id: 'msg_2', client_message_id: '__proto__' }))
    .then(t, []);
});
t.test('blank content is refused', async (t) =>
  given([created])
    .when(message({ content: '  ' }))
    .thenFails(t, 'validation'),
);
