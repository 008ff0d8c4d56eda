import t from 'tap';
import { resolved } from '../support/openapi';
import { expectError } from '../support/expect';
import { enableAgent } from '../support/agent';
import { adminJson } from '../support/service';
import { tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

// The AI agent's configuration over HTTP (spec 2.6): defaults, PATCH and its bounds, plans and
// tiers, and when a turn is refused for it. Turns themselves: agent.test.ts.

const e2e = serviceFixture({ tenant: false });

t.test('GET /agent without a configuration answers the disabled default with every field', async (t) => {
  const fresh = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Fresh' });
  const r = await fresh.api.get('/agent');
  t.equal(r.status, 200);
  t.strictSame(r.body, {
    object: 'agent',
    name: 'AI Agent',
    avatar_url: null,
    is_enabled: false,
    tone: 'friendly',
    response_length: 'balanced',
    custom_instructions: null,
    model_tier: 'essential',
    escalation: { enabled: false, keywords: [], after_replies: null },
    deployed_channels: { api: false, widget: false, whatsapp: false, facebook: false, instagram: false, telegram: false, mcp: false },
  });
});

t.test('PATCH /agent changes only the given fields, merges deployed_channels, and validates every bound', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Patch' });
  const first = await w.api.patch('/agent', { name: 'Ada', deployed_channels: { widget: true } });
  t.equal(first.status, 200);
  t.match(first.body, { name: 'Ada', is_enabled: false, deployed_channels: { widget: true, api: false } });
  const second = (await w.api.patch('/agent', { tone: 'casual', deployed_channels: { api: true }, escalation: { enabled: true, keywords: ['human'] } })).body;
  t.match(second, {
    name: 'Ada',
    tone: 'casual',
    deployed_channels: { widget: true, api: true },
    escalation: { enabled: true, keywords: ['human'], after_replies: null },
  });
  t.strictSame((await w.api.get('/agent')).body, second, 'read back as written');
  for (const bad of [
    { name: '' },
    { name: 'x'.repeat(101) },
    { custom_instructions: 'x'.repeat(2001) },
    { escalation: { after_replies: 0 } },
    { escalation: { after_replies: 11 } },
    { escalation: { after_replies: 2.5 } },
    { tone: 'rude' },
    { response_length: 'long' },
    { model_tier: 'mega' },
    { deployed_channels: { email: true } },
    { is_enabled: 'yes' },
    { avatar_url: 'https://x.io/a.png' },
    { unknown: 1 },
  ]) {
    expectError(t, await w.api.patch('/agent', { is_enabled: true, ...bad }), 400, undefined, JSON.stringify(bad).slice(0, 60));
  }
  t.strictSame((await w.api.get('/agent')).body, second, 'a rejected PATCH changed nothing');
  t.equal((await w.api.patch('/agent', { custom_instructions: null, escalation: { after_replies: 10 } })).body.escalation.after_replies, 10);
  // What the document says is what is checked: blank is refused (the schema's pattern, as trim
  // counts whitespace), and lengths are in characters, as maxLength counts them.
  const doc = (await w.api.get('/openapi.json')).body;
  const schema = resolved(doc, doc.paths['/agent'].patch.requestBody.content['application/json'].schema);
  t.match(schema.properties.name, { minLength: 1, maxLength: 100, pattern: String });
  t.equal(schema.properties.escalation.properties.keywords.items.pattern, schema.properties.name.pattern);
  for (const blank of [{ name: ' \u00a0\ufeff' }, { escalation: { keywords: ['ok', '\u2003'] } }]) {
    expectError(t, await w.api.patch('/agent', blank), 400, undefined, JSON.stringify(blank));
  }
  const astral = '\u{1F600}'.repeat(100);
  t.equal(
    (await w.api.patch('/agent', { name: astral, custom_instructions: '\u{1F600}'.repeat(2000) })).body.name,
    astral,
    '100 characters of two UTF-16 units each',
  );
});

t.test('plans: pro allows essential and pro; ultra is enterprise-only (403 PLAN_LIMIT_REACHED)', async (t) => {
  const pro = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Pro', workspaceArgs: ['--plan', 'pro'] });
  t.equal((await pro.api.patch('/agent', { model_tier: 'pro' })).body.model_tier, 'pro');
  const refused = await pro.api.patch('/agent', { model_tier: 'ultra', name: 'Never' });
  expectError(t, refused, 403, 'PLAN_LIMIT_REACHED');
  t.equal((await pro.api.get('/agent')).body.name, 'AI Agent', 'nothing of the refused PATCH was kept');
  const ent = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Ent', workspaceArgs: ['--plan', 'enterprise'] });
  await enableAgent(ent, { model_tier: 'ultra' });
  const turn = await ent.api.post('/agent/messages', { message: 'hello' });
  t.equal(turn.status, 200);
  t.equal(turn.body.model_tier, 'ultra');
  // Downgraded later: the configured tier is no longer included.
  await adminJson(e2e.dir, 'workspace', 'set', '--id', ent.workspaceId, '--plan', 'pro');
  expectError(t, await ent.api.post('/agent/messages', { message: 'hello again' }), 403, 'PLAN_LIMIT_REACHED');
});

t.test('MCP on turns the API channel on (rule 5)', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Mcp' });
  t.match((await w.api.patch('/agent', { deployed_channels: { mcp: true } })).body.deployed_channels, { mcp: true, api: true });
});

t.test('a disabled agent, or one not deployed on api, answers 409', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Off' });
  expectError(t, await w.api.post('/agent/messages', { message: 'hi' }), 409, 'conflict');
  // Each rule alone: deployed on api but disabled, then enabled but not deployed on api.
  await w.api.patch('/agent', { deployed_channels: { api: true } });
  const disabled = await w.api.post('/agent/messages', { message: 'hi' });
  expectError(t, disabled, 409, 'conflict');
  t.match(disabled.body.error.message, /disabled/);
  await w.api.patch('/agent', { is_enabled: true, deployed_channels: { api: false } });
  const undeployed = await w.api.post('/agent/messages', { message: 'hi' });
  expectError(t, undeployed, 409, 'conflict');
  t.match(undeployed.body.error.message, /not deployed on the API channel/);
  await w.api.patch('/agent', { deployed_channels: { api: true } });
  t.equal((await w.api.post('/agent/messages', { message: 'hi' })).status, 200);
  t.equal((await w.api.get('/conversations')).body.data.length, 1, 'the refused turns wrote nothing');
});
