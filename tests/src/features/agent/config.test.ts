import t from 'tap';
import { AGENT_DEFAULTS, agentDecider, AgentEvent } from '@support/agent';
import { spec } from '../../support/decider-spec';

const given = spec(agentDecider);
const configured = (changes: AgentEvent['data']['changes']): AgentEvent => ({ type: 'agent.configured', data: { workspace_id: 'ws_1', changes } });
const patch = (p: object, plan: 'pro' | 'enterprise' = 'pro') => ({ type: 'configure' as const, workspace_id: 'ws_1', plan, patch: p });

t.test('the default is disabled, on no channel, escalation off, essential tier', async (t) => {
  t.strictSame(agentDecider.initialState.settings, AGENT_DEFAULTS);
  t.equal(AGENT_DEFAULTS.is_enabled, false);
  t.ok(Object.values(AGENT_DEFAULTS.deployed_channels).every((v) => v === false));
});

t.test('the first PATCH creates the configuration with only the changed fields', async (t) =>
  given([])
    .when(patch({ is_enabled: true, tone: 'friendly' }))
    .then(t, [configured({ is_enabled: true })]),
);

t.test('a first PATCH equal to the default is still recorded (the configuration now exists)', async (t) =>
  given([])
    .when(patch({ tone: 'friendly' }))
    .then(t, [configured({})]),
);

t.test('a PATCH that changes nothing records nothing', async (t) =>
  given([configured({ is_enabled: true })])
    .when(patch({ is_enabled: true }))
    .then(t, []),
);

t.test('deployed_channels merge key by key', async (t) =>
  given([configured({ deployed_channels: { ...AGENT_DEFAULTS.deployed_channels, widget: true } })])
    .when(patch({ deployed_channels: { api: true } }))
    .then(t, [configured({ deployed_channels: { ...AGENT_DEFAULTS.deployed_channels, widget: true, api: true } })]),
);

t.test('turning the MCP server on turns the API channel on (rule 5)', async (t) =>
  given([])
    .when(patch({ deployed_channels: { mcp: true } }))
    .then(t, [configured({ deployed_channels: { ...AGENT_DEFAULTS.deployed_channels, mcp: true, api: true } })]),
);

t.test('escalation merges its fields; keywords are trimmed and kept once', async (t) =>
  given([configured({ escalation: { enabled: true, keywords: ['human'], after_replies: null } })])
    .when(patch({ escalation: { after_replies: 3, keywords: [' human ', 'manager', 'human'] } }))
    .then(t, [configured({ escalation: { enabled: true, keywords: ['human', 'manager'], after_replies: 3 } })]),
);

t.test('bounds: name 1..100, custom_instructions ≤ 2000, after_replies 1..10, no blank keyword', async (t) => {
  given([])
    .when(patch({ name: '   ' }))
    .thenFails(t, 'validation', /name/);
  given([])
    .when(patch({ name: 'x'.repeat(101) }))
    .thenFails(t, 'validation', /name/);
  given([])
    .when(patch({ custom_instructions: 'x'.repeat(2001) }))
    .thenFails(t, 'validation', /custom_instructions/);
  given([])
    .when(patch({ escalation: { after_replies: 0 } }))
    .thenFails(t, 'validation', /after_replies/);
  given([])
    .when(patch({ escalation: { after_replies: 11 } }))
    .thenFails(t, 'validation', /after_replies/);
  given([])
    .when(patch({ escalation: { keywords: [' '] } }))
    .thenFails(t, 'validation', /keywords/);
  given([])
    .when(patch({ custom_instructions: null, escalation: { after_replies: null } }))
    .then(t, [configured({})]);
});

t.test('the plan limits the model tier: pro has essential and pro, enterprise all three', async (t) => {
  given([])
    .when(patch({ model_tier: 'pro' }))
    .then(t, [configured({ model_tier: 'pro' })]);
  given([])
    .when(patch({ model_tier: 'ultra' }))
    .thenFails(t, 'plan_limit', /ultra/);
  given([])
    .when(patch({ model_tier: 'ultra' }, 'enterprise'))
    .then(t, [configured({ model_tier: 'ultra' })]);
});

t.test('a rejected PATCH changes nothing, even its valid fields', async (t) =>
  given([])
    .when(patch({ is_enabled: true, model_tier: 'ultra' }))
    .thenFails(t, 'plan_limit'),
);
