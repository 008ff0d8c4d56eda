import t from 'tap';
import { CannedResponseCommand, cannedResponseDecider, CannedResponseEvent, CannedResponseInput } from '@support/canned-responses';
import { spec } from '../../support/decider-spec';

const given = spec(cannedResponseDecider);
const AT = '2026-03-01T10:00:00.000Z';
const importing = (input: Record<string, unknown>, extra: Partial<CannedResponseCommand> = {}): CannedResponseCommand => ({
  type: 'import',
  id: 'cr_1',
  workspace_id: 'ws_1',
  at: AT,
  input: input as CannedResponseInput,
  ...extra,
});
const created: CannedResponseEvent = {
  type: 'canned_response.created',
  data: {
    id: 'cr_1',
    workspace_id: 'ws_1',
    name: 'Greeting',
    content: 'Hello!',
    shortcut: null,
    visibility: 'personal',
    set_status: null,
    set_priority: null,
    add_tags: [],
    usage_count: 0,
    created_at: AT,
  },
};

t.test('a new canned response gets the defaults', async (t) =>
  given([])
    .when(importing({ name: 'Greeting', content: 'Hello!' }))
    .then(t, [created]),
);

t.test('given fields are kept, add_tags deduplicated', async (t) =>
  given([])
    .when(importing({ name: 'Greeting', content: 'Hello!', shortcut: '/hi', visibility: 'team', add_tags: ['a', ' a', 'b'], usage_count: 12 }))
    .then(t, [{ ...created, data: { ...created.data, shortcut: '/hi', visibility: 'team', add_tags: ['a', 'b'], usage_count: 12 } }]),
);

t.test('bad values are refused with the field named', async (t) => {
  given([])
    .when(importing({ name: 'Greeting', content: 'Hello!', usage_count: -1 }))
    .thenFails(t, 'validation', /usage_count must be an integer ≥ 0/);
  given([])
    .when(importing({ name: 'Greeting', content: 'Hello!', add_tags: 'x' }))
    .thenFails(t, 'validation', /add_tags must be an array of strings/);
});

t.test('an update records only the changed fields', async (t) => {
  given([created])
    .when(importing({ name: 'Greeting', content: 'Hi there!', usage_count: 0 }))
    .then(t, [{ type: 'canned_response.updated', data: { id: 'cr_1', changes: { content: 'Hi there!' } } }]);
  given([created])
    .when(importing({ name: 'Greeting', content: 'Hello!' }))
    .then(t, []);
  given([created])
    .when(importing({ name: 'x', content: 'y' }, { workspace_id: 'ws_2' }))
    .thenFails(t, 'conflict');
});
