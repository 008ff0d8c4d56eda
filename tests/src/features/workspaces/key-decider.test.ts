import t from 'tap';
import { scopesForAccess, SCOPES } from '@support/domain';
import { apiKeyDecider, ApiKeyEvent } from '@support/workspaces';
import { spec } from '../../support/decider-spec';

const given = spec(apiKeyDecider);
const data = { id: 'key_1', workspace_id: 'ws_1', name: 'ci', scopes: ['customers:read'], key_hash: 'abc', expires_at: null };
const created: ApiKeyEvent = { type: 'api_key.created', data: { ...data, environment: 'live' } };

t.test('a key is created with its hash, never its secret', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'live' })
    .then(t, [created]),
);
t.test('duplicate scopes collapse', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'live', scopes: ['customers:read', 'customers:read'] })
    .then(t, [created]),
);
t.test('unknown scopes are refused', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'live', scopes: ['everything'] })
    .thenFails(t, 'validation', /everything/),
);
t.test('a key needs a scope', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'live', scopes: [] })
    .thenFails(t, 'validation'),
);
t.test('environment is live or test', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'prod' })
    .thenFails(t, 'validation', /environment/),
);
t.test('expiry must be a time', async (t) =>
  given([])
    .when({ type: 'create', ...data, environment: 'test', expires_at: 'soon' })
    .thenFails(t, 'validation', /expires_at/),
);
t.test('a key is revoked once; again is a no-op', async (t) => {
  given([created])
    .when({ type: 'revoke' })
    .then(t, [{ type: 'api_key.revoked', data: { id: 'key_1' } }]);
  given([created, { type: 'api_key.revoked', data: { id: 'key_1' } }])
    .when({ type: 'revoke' })
    .then(t, []);
});
t.test('revoking an unknown key fails', async (t) => given([]).when({ type: 'revoke' }).thenFails(t, 'not_found'));
t.test('access levels', async (t) => {
  t.strictSame(scopesForAccess('full'), [...SCOPES]);
  t.strictSame(scopesForAccess('read_only'), ['agent:read', 'conversations:read', 'customers:read', 'tickets:read', 'knowledge_base:read', 'channels:read']);
  t.strictSame(scopesForAccess('chat_only'), ['agent:chat', 'agent:read']);
});
