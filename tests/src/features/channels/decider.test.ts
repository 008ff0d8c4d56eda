import t from 'tap';
import { ChannelCommand, channelDecider, ChannelEvent, ChannelInput } from '@support/channels';
import { spec } from '../../support/decider-spec';

const given = spec(channelDecider);
const AT = '2026-03-01T10:00:00.000Z';
const importing = (input: Record<string, unknown>, extra: Partial<ChannelCommand> = {}): ChannelCommand => ({
  type: 'import',
  id: 'ch_1',
  workspace_id: 'ws_1',
  at: AT,
  input: input as ChannelInput,
  ...extra,
});
const created: ChannelEvent = {
  type: 'channel.created',
  data: {
    id: 'ch_1',
    workspace_id: 'ws_1',
    type: 'widget',
    name: 'Site chat',
    is_active: true,
    status: 'pending',
    last_connected_at: null,
    last_error_message: null,
    config: {},
    created_at: AT,
  },
};

t.test('a new channel gets the defaults', async (t) =>
  given([])
    .when(importing({ type: 'widget', name: 'Site chat' }))
    .then(t, [created]),
);

t.test('config is recorded in the event; a given conversation_count is ignored', async (t) =>
  given([])
    .when(importing({ type: 'widget', name: 'Site chat', config: { token: 's3cret' }, conversation_count: 40, status: 'connected' }))
    .then(t, [{ ...created, data: { ...created.data, config: { token: 's3cret' }, status: 'connected' } }]),
);

t.test('type and status outside the vocabulary are refused', async (t) => {
  given([])
    .when(importing({ type: 'sms', name: 'x' }))
    .thenFails(t, 'validation', /type must be one of widget, whatsapp, facebook, instagram, telegram, email, api \(got "sms"\)/);
  given([])
    .when(importing({ type: 'email', name: 'x', status: 'live' }))
    .thenFails(t, 'validation', /status must be one of pending, connected, error, disconnected/);
  given([])
    .when(importing({ type: 'email', name: 'x', config: 'token' }))
    .thenFails(t, 'validation', /config must be an object/);
  given([])
    .when(importing({ name: 'x' }))
    .thenFails(t, 'validation', /type is required/);
});

t.test('an update records only the changed fields; config is replaced as a whole', async (t) => {
  given([created])
    .when(importing({ type: 'widget', name: 'Site chat', status: 'error', last_error_message: 'token expired', config: { token: 'new' } }))
    .then(t, [{ type: 'channel.updated', data: { id: 'ch_1', changes: { status: 'error', last_error_message: 'token expired', config: { token: 'new' } } } }]);
  given([created])
    .when(importing({ type: 'widget', name: 'Site chat', conversation_count: 3 }))
    .then(t, []);
  given([created])
    .when(importing({ type: 'widget', name: 'x' }, { workspace_id: 'ws_2' }))
    .thenFails(t, 'conflict');
});
