import t from 'tap';
import { expectError } from '../support/expect';
import { enableAgent, importArticles, kbId } from '../support/agent';
import { adminJson, replayEvents, startService } from '../support/service';
import { until } from '../support/wait';
import { keyFor, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

// The AI agent over HTTP (spec 2.7, 2.7a, 4.3): turns, credits, escalation, lead capture and
// knowledge search, on the embedded engines. Its configuration: agent-config.test.ts.

const e2e = serviceFixture({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, tenant: { name: 'Agent' } });

const ARTICLES = [
  {
    id: kbId(1),
    title: 'Refund policy',
    content:
      '# Refund policy\n\nWe refund any order within 30 days of delivery. Refunds go back to the original payment method within 5 business days.\n\n' +
      '## How to ask for a refund\n\nOpen [your orders page](https://shop.example.com/orders) and choose Request refund on the order. ' +
      '![The refund button](https://cdn.example.com/img/refund-button.png)',
  },
  {
    id: kbId(2),
    title: 'Shipping times',
    content: 'Standard shipping takes 3 to 5 business days. Express shipping arrives the next business day when you order before 2 pm.',
  },
  {
    id: kbId(3),
    title: 'Resetting your password',
    content: 'To reset your password, open the sign-in page and click Forgot password. We e-mail you a reset link that is valid for one hour.',
  },
  { id: kbId(4), title: 'Secret refund roadmap', content: 'Refund refunds refunded: a draft that must never be searched.', status: 'draft' },
  { id: kbId(5), title: 'Internal refund exceptions', content: 'Refund exceptions for refunds over 30 days, for staff only.', ai_agent_enabled: false },
];
/** The first three articles under ids of their own: article ids are global, a workspace imports its own. */
let copies = 0;
const ownArticles = () => {
  copies++;
  return ARTICLES.slice(0, 3).map((a, i) => ({ ...a, id: kbId(1000 * copies + i) }));
};
const REFUND_Q = 'How many days do I have to get a refund for my order?';
// A question to the business that no article answers (trivia is declined as off-topic instead, free).
const NO_ANSWER = 'Can I pay for my order with Bitcoin?';

const events = (workspaceId: string) => replayEvents(e2e.dir, '--workspace', workspaceId);
const credits = async (workspaceId: string) => (await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', workspaceId)).credits;

t.before(async () => {
  await importArticles(e2e.dir, e2e.ws, ARTICLES);
});

t.test('a grounded turn: new api conversation, messages recorded, sources cited, one credit charged', async (t) => {
  await enableAgent(e2e.ws);
  const before = await credits(e2e.ws.workspaceId);
  const r = await e2e.ws.api.post('/agent/messages', { message: REFUND_Q, customer: { email: 'ann@example.com', name: 'Ann' } });
  t.equal(r.status, 200);
  t.match(r.body, { object: 'agent_response', conversation_id: /^conv_/, escalated: false, credits_used: 1, model_tier: 'essential' });
  t.ok(r.body.messages.length >= 1 && r.body.messages.every((m: string) => m.length > 0), 'reply bubbles');
  t.strictSame(r.body.sources, ['Refund policy'], 'the cited article, never a draft or AI-disabled one');
  t.ok(r.body.messages.join(' ').includes('30 days'), 'the answer is taken from the passage');
  t.equal(await credits(e2e.ws.workspaceId), before - 1, 'the balance went down by one credit');

  const conv = (await e2e.ws.api.get(`/conversations/${r.body.conversation_id}`)).body;
  t.match(conv, { channel: 'api', customer_email: 'ann@example.com', message_count: 1 + r.body.messages.length });
  t.ok(
    (await e2e.ws.api.get('/conversations')).body.data.some((c: { id: string }) => c.id === conv.id),
    'visible in the inbox',
  );
  const msgs = (await e2e.ws.api.get(`/conversations/${conv.id}/messages`)).body.data.reverse();
  t.strictSame(
    msgs.map((m: { sender_type: string }) => m.sender_type),
    ['customer', ...r.body.messages.map(() => 'ai')],
  );
  t.strictSame(
    msgs.slice(1).map((m: { content: string }) => m.content),
    r.body.messages,
  );
  const customer = (await e2e.ws.api.get('/customers?search=ann@example.com')).body.data[0];
  t.equal(conv.customer_id, customer.id, 'the customer was created and linked');

  const again = await e2e.ws.api.post('/agent/messages', {
    message: 'And how long does the money take to come back?',
    conversation_id: conv.id,
    customer: { email: 'other@example.com' },
  });
  t.equal(again.body.conversation_id, conv.id, 'the conversation continues');
  t.equal((await e2e.ws.api.get(`/conversations/${conv.id}`)).body.customer_id, customer.id, '`customer` is used only for a new conversation');
  const created = (await events(e2e.ws.workspaceId)).filter((e) => e.stream === `conversation-${conv.id}` && e.type === 'message.created');
  t.equal(created.length, 2 + r.body.messages.length + again.body.messages.length, 'every bubble is a message.created event');
});

t.test('the conversation must be an api conversation of this workspace', async (t) => {
  await enableAgent(e2e.ws);
  const widget = (await e2e.ws.api.post('/conversations', { channel: 'widget' })).body;
  expectError(t, await e2e.ws.api.post('/agent/messages', { message: 'hi', conversation_id: widget.id }), 400, 'validation_error');
  expectError(t, await e2e.ws.api.post('/agent/messages', { message: 'hi', conversation_id: 'conv_01J00000000000000000000000' }), 404, 'not_found');
  // A malformed id is the schema's 400 naming the field and its form, as in a path; not a 404.
  const malformed = await e2e.ws.api.post('/agent/messages', { message: 'hi', conversation_id: 'abc' });
  expectError(t, malformed, 400);
  t.match(malformed.body.error.details.fields, [{ field: 'conversation_id' }]);
  const other = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Other' });
  await enableAgent(other);
  const mine = (await e2e.ws.api.post('/agent/messages', { message: 'hi' })).body.conversation_id;
  expectError(t, await other.api.post('/agent/messages', { message: 'hi', conversation_id: mine }), 404, 'not_found');
  expectError(t, await e2e.ws.api.post('/agent/messages', { message: '' }), 400);
  expectError(t, await e2e.ws.api.post('/agent/messages', {}), 400);
  const before = await credits(e2e.ws.workspaceId);
  expectError(t, await e2e.ws.api.post('/agent/messages', { message: REFUND_Q, customer: { name: 'No identity' } }), 400, 'validation_error');
  t.equal(await credits(e2e.ws.workspaceId), before, 'refused before any charge');
});

t.test('nothing relevant: no invented answer; with escalation off the agent says it does not know', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'NoAnswer' });
  await importArticles(e2e.dir, w, ownArticles());
  await enableAgent(w);
  const r = (await w.api.post('/agent/messages', { message: NO_ANSWER })).body;
  t.equal(r.escalated, false);
  t.strictSame(r.sources, []);
  t.equal(r.messages.length, 1, 'one bubble saying it does not know');
  t.equal(r.credits_used, 1, 'a reply was produced');
});

t.test('escalation when no grounded answer is found; later turns stay silent until re-assigned to ai', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Escalate' });
  await importArticles(e2e.dir, w, ownArticles());
  await enableAgent(w, { escalation: { enabled: true } });
  const before = await credits(w.workspaceId);
  const r = (await w.api.post('/agent/messages', { message: NO_ANSWER })).body;
  t.strictSame([r.escalated, r.escalation_reason, r.sources, r.credits_used, r.messages.length], [true, 'no_answer', [], 0, 1]);
  t.match(r.messages[0], /person on our team/, 'one bubble says a person takes over, in the tone');
  const conv = (await w.api.get(`/conversations/${r.conversation_id}`)).body;
  t.not(conv.assignee, 'ai');
  const recorded = (await events(w.workspaceId)).filter((e) => e.type === 'agent.escalated');
  // The escalation names its turn and the hand-over bubble the customer got
  const bubble = (await w.api.get(`/conversations/${r.conversation_id}/messages`)).body.data.filter((m: { sender_type: string }) => m.sender_type === 'ai');
  t.strictSame(
    recorded.map((e) => ({ ...e.data, turn_id: /^turn_/.test(e.data.turn_id) })),
    [{ id: r.conversation_id, reason: 'no_answer', keyword: null, turn_id: true, message_ids: bubble.map((m: { id: string }) => m.id) }],
  );
  t.equal(bubble.length, 1);
  const silent = (await w.api.post('/agent/messages', { message: REFUND_Q, conversation_id: r.conversation_id })).body;
  t.match(silent, { messages: [], credits_used: 0, escalated: false });
  await w.api.patch(`/conversations/${r.conversation_id}`, { assignee: 'ai' });
  const back = (await w.api.post('/agent/messages', { message: REFUND_Q, conversation_id: r.conversation_id })).body;
  t.equal(back.credits_used, 1, 'assigned to ai again: it answers');
  t.ok(back.messages.length > 0);
  t.equal(await credits(w.workspaceId), before - 1);
});

t.test('webhook events: agent.escalated carries the conversation, lead.captured the customer', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Hooks' });
  // Nothing listens there: the /events log records an event whether or not delivery succeeds.
  const endpoint = await w.api.post('/webhook_endpoints', { url: 'https://127.0.0.1:9/hooks', enabled_events: ['agent.escalated', 'lead.captured'] });
  t.equal(endpoint.status, 201);
  await enableAgent(w, { escalation: { enabled: true, keywords: ['human'] } });
  const r = (await w.api.post('/agent/messages', { message: 'A human please, mail me at hook.lead@example.com' })).body;
  t.equal(r.escalated, true);
  const conv = (await w.api.get(`/conversations/${r.conversation_id}`)).body;
  let logged: any[] = [];
  await until(
    async () => {
      logged = (await w.api.get('/events')).body.data;
      return logged.length === 2;
    },
    10_000,
    50,
  );
  const byType = Object.fromEntries(logged.map((e) => [e.type, e.data]));
  t.match(byType['agent.escalated'], { object: 'conversation', id: r.conversation_id, assignee: null });
  t.match(byType['lead.captured'], { object: 'customer', id: conv.customer_id, email: 'hook.lead@example.com' });
});

t.test('escalation by keyword (case and accents ignored, whole words) and after N replies', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Keywords' });
  await importArticles(e2e.dir, w, ownArticles());
  await enableAgent(w, { escalation: { enabled: true, keywords: ['humain', 'real person'], after_replies: 2 } });
  const k = (await w.api.post('/agent/messages', { message: 'Je veux un HÚMAIN, pas un robot' })).body;
  t.strictSame([k.escalated, k.escalation_reason, k.credits_used, k.messages.length], [true, 'keyword', 0, 1]);
  t.equal((await w.api.post('/agent/messages', { message: 'is refund humaine? ' + REFUND_Q })).body.escalated, false, 'not inside a longer word');
  const first = (await w.api.post('/agent/messages', { message: REFUND_Q })).body;
  const id = first.conversation_id;
  t.equal(first.credits_used, 1);
  t.equal((await w.api.post('/agent/messages', { message: 'How long does standard shipping take?', conversation_id: id })).body.credits_used, 1);
  const third = (await w.api.post('/agent/messages', { message: 'How do I reset my password?', conversation_id: id })).body;
  t.strictSame(
    [third.escalated, third.escalation_reason, third.credits_used, third.messages.length],
    [true, 'after_replies', 0, 1],
    'after_replies = 2 reached',
  );
  const asked = (await w.api.post('/agent/messages', { message: 'Can I speak with someone on your staff about my refund?' })).body;
  t.strictSame([asked.escalated, asked.escalation_reason, asked.credits_used], [true, 'customer_asked', 0], 'the customer asked for a person');
  const reasons = (await events(w.workspaceId)).filter((e) => e.type === 'agent.escalated').map((e) => e.data.reason);
  t.strictSame(reasons, ['keyword', 'after_replies', 'customer_asked']);
  // Hand-overs off: asking for a person is told plainly that none can join, free, not declined as off-topic.
  await enableAgent(w, { escalation: { enabled: false } });
  const off = (await w.api.post('/agent/messages', { message: 'I want to talk to a human agent please' })).body;
  t.strictSame([off.escalated, off.credits_used, off.sources], [false, 0, []]);
  t.match(off.messages, [/hand you over to a person in this chat/]);
});

t.test('a human assignee holds the conversation: 200 with no reply and nothing charged', async (t) => {
  await enableAgent(e2e.ws);
  const c = (await e2e.ws.api.post('/agent/messages', { message: REFUND_Q })).body.conversation_id;
  await e2e.ws.api.patch(`/conversations/${c}`, { assignee: 'user_42' });
  const before = await credits(e2e.ws.workspaceId);
  const r = await e2e.ws.api.post('/agent/messages', { message: REFUND_Q, conversation_id: c });
  t.equal(r.status, 200);
  t.match(r.body, { messages: [], credits_used: 0, escalated: false, sources: [] });
  t.equal(await credits(e2e.ws.workspaceId), before);
  const last = (await e2e.ws.api.get(`/conversations/${c}/messages?limit=1`)).body.data[0];
  t.match(last, { sender_type: 'customer', content: REFUND_Q }, "the customer's message is still recorded");
});

t.test('abuse protection: the third identical message in a row gets no reply and costs nothing', async (t) => {
  await enableAgent(e2e.ws);
  const c = (await e2e.ws.api.post('/agent/messages', { message: REFUND_Q })).body.conversation_id;
  t.equal((await e2e.ws.api.post('/agent/messages', { message: REFUND_Q, conversation_id: c })).body.credits_used, 1);
  const third = (await e2e.ws.api.post('/agent/messages', { message: `  ${REFUND_Q.toUpperCase()} `, conversation_id: c })).body;
  t.match(third, { messages: [], credits_used: 0 });
});

t.test('lead capture: an e-mail in a message creates and links the customer and records lead.captured', async (t) => {
  await enableAgent(e2e.ws);
  const r = (await e2e.ws.api.post('/agent/messages', { message: 'Please write to me at lead.person@example.org about my refund' })).body;
  const conv = (await e2e.ws.api.get(`/conversations/${r.conversation_id}`)).body;
  t.match(conv, { customer_id: /^cus_/, customer_email: 'lead.person@example.org' });
  const customer = (await e2e.ws.api.get(`/customers/${conv.customer_id}`)).body;
  t.match(customer, { email: 'lead.person@example.org', conversation_count: 1 });
  const more = (await e2e.ws.api.post('/agent/messages', { message: 'or call me on +1 415 555 0134', conversation_id: conv.id })).body;
  t.equal(more.conversation_id, conv.id);
  t.equal((await e2e.ws.api.get(`/customers/${conv.customer_id}`)).body.phone, '+1 415 555 0134', 'the phone updates the same customer');
  const leads = (await events(e2e.ws.workspaceId)).filter((e) => e.type === 'lead.captured' && e.data.conversation_id === conv.id);
  t.strictSame(
    leads.map((e) => e.data),
    [
      { id: conv.customer_id, conversation_id: conv.id, email: 'lead.person@example.org', phone: null },
      { id: conv.customer_id, conversation_id: conv.id, email: null, phone: '+1 415 555 0134' },
    ],
  );
});

t.test('lead capture: details typed in a chat never change a customer who existed before', async (t) => {
  await enableAgent(e2e.ws);
  // Given a customer with an e-mail and no phone
  const victim = (await e2e.ws.api.post('/customers', { email: 'lead.victim@example.org', name: 'Vic' })).body;
  // When an anonymous chat names that e-mail with a phone of its own (an attacker's trial)
  const r = (await e2e.ws.api.post('/agent/messages', { message: 'my new email is lead.victim@example.org call me at +1 555 000 2222' })).body;
  // Then the customer's record is as it was, and the lead is recorded for the conversation
  t.strictSame((await e2e.ws.api.get(`/customers/${victim.id}`)).body.phone, null);
  // And a later message of that chat, now linked to the customer, changes nothing either
  await e2e.ws.api.post('/agent/messages', { conversation_id: r.conversation_id, message: 'or call me at +1 555 000 3333' });
  t.strictSame((await e2e.ws.api.get(`/customers/${victim.id}`)).body.phone, null, 'not on the second message');
  const leads = (await events(e2e.ws.workspaceId)).filter((e) => e.type === 'lead.captured' && e.data.conversation_id === r.conversation_id);
  t.strictSame(
    leads.map((e) => e.data),
    [
      { id: victim.id, conversation_id: r.conversation_id, email: 'lead.victim@example.org', phone: '+1 555 000 2222' },
      { id: victim.id, conversation_id: r.conversation_id, email: null, phone: '+1 555 000 3333' },
    ],
  );
});

t.test("lead capture: a chat fills in the API client's customer, never replaces what it holds; it corrects its own lead's", async (t) => {
  await enableAgent(e2e.ws);
  // Given a chat whose customer the API client gave, with an e-mail and no phone
  const given = { external_id: 'lead-fill-1', email: 'api.given@example.org' };
  const r = (await e2e.ws.api.post('/agent/messages', { message: 'my email is chat.claim@example.org, call me at +1 555 000 4444', customer: given })).body;
  const conv = (await e2e.ws.api.get(`/conversations/${r.conversation_id}`)).body;
  // Then the missing phone is filled in and the stored e-mail kept
  t.match((await e2e.ws.api.get(`/customers/${conv.customer_id}`)).body, { email: 'api.given@example.org', phone: '+1 555 000 4444' });
  // And a later message naming other details changes neither
  await e2e.ws.api.post('/agent/messages', { conversation_id: conv.id, message: 'please update my email to someone.else@example.org or call +1 555 000 5555' });
  t.match((await e2e.ws.api.get(`/customers/${conv.customer_id}`)).body, { email: 'api.given@example.org', phone: '+1 555 000 4444' }, 'not replaced');
  // Given an anonymous chat whose own lead created its customer, when it corrects the address, then the customer follows
  const own = (await e2e.ws.api.post('/agent/messages', { message: 'write to me at lead.typo@example.org' })).body;
  await e2e.ws.api.post('/agent/messages', { conversation_id: own.conversation_id, message: 'sorry, it is lead.fixed@example.org' });
  const ownConv = (await e2e.ws.api.get(`/conversations/${own.conversation_id}`)).body;
  t.strictSame(
    [ownConv.customer_email, (await e2e.ws.api.get(`/customers/${ownConv.customer_id}`)).body.email],
    ['lead.fixed@example.org', 'lead.fixed@example.org'],
  );
});

t.test('credits are exact under concurrency: 50 turns against 10 credits give 10 replies and a balance of 0', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Race', workspaceArgs: ['--credits', '10'] });
  await importArticles(e2e.dir, w, ownArticles());
  await enableAgent(w);
  const replies = await Promise.all(Array.from({ length: 50 }, () => w.api.post('/agent/messages', { message: REFUND_Q })));
  const ok = replies.filter((r) => r.status === 200);
  const refused = replies.filter((r) => r.status === 403);
  t.equal(ok.length, 10, 'exactly ten replies');
  t.ok(ok.every((r) => r.body.credits_used === 1 && r.body.messages.length > 0));
  t.equal(refused.length, 40, 'the rest are refused');
  for (const r of refused) expectError(t, r, 403, 'PLAN_LIMIT_REACHED');
  t.equal(await credits(w.workspaceId), 0, 'never below zero');
  t.equal((await w.api.get('/conversations?limit=100')).body.data.length, 10, 'a refused turn writes no conversation');
  expectError(t, await w.api.post('/agent/messages', { message: REFUND_Q }), 403, 'PLAN_LIMIT_REACHED');
  t.equal(await credits(w.workspaceId), 0);
});

t.test('POST /agent/search: passages best first, top_k, never a draft or AI-disabled article, validated', async (t) => {
  const r = await e2e.ws.api.post('/agent/search', { query: 'refunds' });
  t.equal(r.status, 200);
  t.match(r.body, { object: 'list', has_more: false, next_cursor: null });
  t.ok(r.body.data.length >= 1);
  t.strictSame(Object.keys(r.body.data[0]).sort(), ['filename', 'is_public', 'knowledge_base_id', 'object', 'text', 'type']);
  t.match(r.body.data[0], { object: 'knowledge_result', knowledge_base_id: kbId(1), filename: 'Refund policy', type: 'public_article', is_public: true });
  t.notOk(r.body.data.some((d: { knowledge_base_id: string }) => d.knowledge_base_id === kbId(4) || d.knowledge_base_id === kbId(5)));
  t.equal((await e2e.ws.api.post('/agent/search', { query: 'business days', top_k: 1 })).body.data.length, 1);
  expectError(t, await e2e.ws.api.post('/agent/search', { query: '' }), 400);
  expectError(t, await e2e.ws.api.post('/agent/search', { query: 'x', top_k: 0 }), 400);
  expectError(t, await e2e.ws.api.post('/agent/search', { query: 'x', top_k: 21 }), 400);
  const articles = (await e2e.ws.api.get('/knowledge_base/articles?limit=100')).body.data;
  const indexed = Object.fromEntries(articles.map((a: { id: string; indexed: boolean }) => [a.id, a.indexed]));
  t.strictSame(
    [1, 2, 3, 4, 5].map((n) => indexed[kbId(n)]),
    [true, true, true, false, false],
    'indexed: searchable ones only',
  );
});

t.test('knowledge is per workspace; unpublishing removes an article from search', async (t) => {
  const w = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Isolated' });
  t.strictSame((await w.api.post('/agent/search', { query: 'refund policy' })).body.data, [], "another workspace's passages are never seen");
  await importArticles(e2e.dir, w, [{ id: kbId(11), title: 'Gift cards', content: 'Gift cards never expire and can be used on any order.' }]);
  t.equal((await w.api.post('/agent/search', { query: 'gift cards' })).body.data[0].knowledge_base_id, kbId(11));
  t.notOk(
    ((await e2e.ws.api.post('/agent/search', { query: 'gift cards' })).body.data as { knowledge_base_id: string }[]).some(
      (d) => d.knowledge_base_id === kbId(11),
    ),
    "nor the other way: the first workspace's search never returns the new one's article",
  );
  await importArticles(e2e.dir, w, [{ id: kbId(11), title: 'Gift cards', content: 'Gift cards never expire and can be used on any order.', status: 'draft' }]);
  t.strictSame((await w.api.post('/agent/search', { query: 'gift cards' })).body.data, [], 'unpublished: gone from search');
  t.equal((await w.api.get(`/knowledge_base/articles/${kbId(11)}`)).body.indexed, false);
});

t.test('scopes: chat_only keys chat and search but cannot configure', async (t) => {
  const chat = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'chat_only']);
  expectError(t, await chat.api.patch('/agent', { name: 'x' }), 403, 'insufficient_scope');
  t.equal((await chat.api.get('/agent')).status, 200);
  t.equal((await chat.api.post('/agent/search', { query: 'refund' })).status, 200);
  const readOnly = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'read_only']);
  const r = await readOnly.api.post('/agent/messages', { message: 'hi' });
  expectError(t, r, 403, 'insufficient_scope');
  t.strictSame(r.body.error.details, { required: ['agent:chat'] });
});

t.test('the chat rate tier applies to POST /agent/messages', async (t) => {
  const r = await e2e.ws.api.post('/agent/messages', { message: REFUND_Q });
  t.equal(r.headers.get('ratelimit-limit'), String(20 * 100), 'chat tier: 20 per key per minute (× RATE_LIMIT_SCALE 100 in tests)');
  t.equal((await e2e.ws.api.post('/agent/search', { query: 'refund' })).headers.get('ratelimit-limit'), String(60 * 100), 'search is a write-tier POST');
});

t.test('a restart keeps the balance and rebuilds the index from the log', async (t) => {
  const balance = await credits(e2e.ws.workspaceId);
  const indexedEvents = async () => (await events(e2e.ws.workspaceId)).filter((e) => e.type === 'knowledge_base_article.indexed').length;
  const flagsBefore = await indexedEvents();
  await e2e.svc.stop();
  e2e.svc = await startService(e2e.dir, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  e2e.ws = { ...e2e.ws, api: (await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId)).api };
  t.equal(await credits(e2e.ws.workspaceId), balance);
  t.equal((await e2e.ws.api.post('/agent/search', { query: 'refunds' })).body.data[0]?.knowledge_base_id, kbId(1), 'searchable right after the start');
  t.ok(
    e2e.svc.output.some((l) => /knowledge index ready/.test(l)),
    'the start-up log says the index was rebuilt',
  );
  t.equal(await indexedEvents(), flagsBefore, 'the rebuild records no `indexed` flag again');
});
