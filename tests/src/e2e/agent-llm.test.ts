import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { enableAgent, importArticles, kbId } from '../support/agent';
import { adminJson } from '../support/service';
import { keyFor, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

// The LLM responder behind the real service (LLM_BASE_URL), against a local fake
// OpenAI-compatible server: a good answer, a slow one and a malformed one.

let mode: 'good' | 'slow' | 'malformed' = 'good';
const seen: { auth?: string; body: any }[] = [];
const fake = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    seen.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
    if (mode === 'slow') return; // never answers; the service's timeout decides
    const content =
      mode === 'good'
        ? JSON.stringify({ messages: ['Refunds are possible for 30 days after delivery.'], quick_replies: [], buttons: [], images: [], citations: [1] })
        : 'Sure! Refunds are possible.';
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] }));
  });
});

// The fake model server starts first: the service is given its port.
const e2e = serviceFixture({
  tenant: { name: 'Llm' },
  env: async () => {
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const { port } = fake.address() as AddressInfo;
    return {
      LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
      LLM_API_KEY: 'sk-test-llm',
      LLM_MODEL_ESSENTIAL: 'tiny-model',
      LLM_MODEL_ULTRA: 'big-model',
      LLM_TIMEOUT_MS: '500',
    };
  },
});
t.before(async () => {
  await importArticles(e2e.dir, e2e.ws, [{ id: kbId(31), title: 'Refund policy', content: 'We refund any order within 30 days of delivery.' }]);
  await enableAgent(e2e.ws, { tone: 'professional', custom_instructions: 'Always sign as Ada.' });
});
t.teardown(() => {
  fake.closeAllConnections();
  fake.close();
});

t.test('a turn is answered by the model, with sources only from the passages it cites', async (t) => {
  mode = 'good';
  const r = await e2e.ws.api.post('/agent/messages', { message: 'Can I get a refund after three weeks?' });
  t.equal(r.status, 200);
  t.strictSame(r.body.messages, ['Refunds are possible for 30 days after delivery.']);
  t.strictSame(r.body.sources, ['Refund policy']);
  t.equal(r.body.credits_used, 1);
  const request = seen[seen.length - 1];
  t.equal(request.auth, 'Bearer sk-test-llm');
  t.equal(request.body.model, 'tiny-model', 'the model of the configured tier');
  const system = request.body.messages[0].content as string;
  t.match(system, /Always sign as Ada/, 'custom instructions reach the prompt');
  t.match(system, /professional/i);
  t.ok(JSON.stringify(request.body.messages).includes('[1] Refund policy'), 'passages as numbered context');
});

t.test('a slow or malformed model answer falls back to the grounded responder, logged', async (t) => {
  for (const m of ['slow', 'malformed'] as const) {
    mode = m;
    const r = await e2e.ws.api.post('/agent/messages', { message: 'How many days do I have to get a refund?' });
    t.equal(r.status, 200, m);
    t.ok(r.body.messages.length > 0, `${m}: still an answer`);
    t.strictSame(r.body.sources, ['Refund policy'], `${m}: grounded answer from the knowledge base`);
    t.notOk(r.body.messages.join(' ').includes('Sure!'), `${m}: the bad model text is not shown`);
  }
  const warnings = e2e.svc.output.filter((l) => /"level":"warn"/.test(l) && /fallback/.test(l));
  t.equal(warnings.length, 2, 'each fallback is logged');
  t.notOk(
    e2e.svc.output.some((l) => l.includes('sk-test-llm')),
    'the API key never reaches the log',
  );
});

t.test('internal articles never reach a prompt, a reply, its sources or its quick replies', async (t) => {
  mode = 'good';
  await importArticles(e2e.dir, e2e.ws, [
    {
      id: kbId(32),
      title: 'Refund override playbook',
      type: 'internal_article',
      content: 'Staff only: refunds after 30 days of delivery are approved with override code OVR-7781.',
    },
    { id: kbId(33), title: 'Refund desk notes', is_public: false, content: 'Refunds after delivery: call the desk line 555-0199 for an exception.' },
  ]);
  const r = await e2e.ws.api.post('/agent/messages', { message: 'Can I get a refund after 30 days of delivery? Is there an override?' });
  t.equal(r.status, 200);
  const prompt = JSON.stringify(seen[seen.length - 1].body);
  t.notOk(/OVR-7781|555-0199|override playbook|desk notes/i.test(prompt), 'no internal passage in the prompt');
  t.notOk(/OVR-7781|555-0199/.test(JSON.stringify(r.body)), 'nor in the answer');
  t.strictSame(r.body.sources, ['Refund policy']);
  // Operators' search sees them, and says what they are.
  const search = await e2e.ws.api.post('/agent/search', { query: 'refund override code after 30 days', top_k: 5 });
  const found = Object.fromEntries(search.body.data.map((d: any) => [d.filename, [d.type, d.is_public]]));
  t.strictSame(found['Refund override playbook'], ['internal_article', false]);
  t.strictSame(found['Refund desk notes'], ['public_article', false]);
  t.strictSame(found['Refund policy'], ['public_article', true]);
  // A chat client's key (agent:chat, agent:read) searches what a customer may be told: no internal text.
  const chat = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'chat_only']);
  const chatSearch = await chat.api.post('/agent/search', { query: 'refund override code after 30 days', top_k: 20 });
  t.equal(chatSearch.status, 200);
  t.strictSame(
    chatSearch.body.data.filter((d: any) => d.type !== 'public_article' || !d.is_public),
    [],
    'no internal passage',
  );
  t.notOk(/OVR-7781|555-0199/.test(JSON.stringify(chatSearch.body)));
  t.ok(
    chatSearch.body.data.some((d: any) => d.filename === 'Refund policy'),
    'the public answer is still found',
  );
});

t.test('a reply the offline responder wrote for the model is charged and reported as essential', async (t) => {
  const big = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Ultra', workspaceArgs: ['--plan', 'enterprise', '--credits', '100'] });
  await importArticles(e2e.dir, big, [{ id: kbId(34), title: 'Refund policy', content: 'We refund any order within 30 days of delivery.' }]);
  await enableAgent(big, { model_tier: 'ultra' });
  mode = 'good';
  const answered = await big.api.post('/agent/messages', { message: 'How many days do I have to get a refund?' });
  t.strictSame([answered.body.model_tier, answered.body.credits_used], ['ultra', 8], 'the model answered: its tier and price');
  mode = 'slow';
  const fellBack = await big.api.post('/agent/messages', { message: 'How many days do I have to get a refund?' });
  t.strictSame([fellBack.body.model_tier, fellBack.body.credits_used], ['essential', 1], 'the offline responder answered: essential');
  const balance = (await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', big.workspaceId)).credits;
  t.equal(balance, 100 - 8 - 1, 'and the charge followed it');
});
