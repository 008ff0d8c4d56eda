import t, { type Test } from 'tap';
import { defaultModelDir, missingModelFiles } from '@support/agent';
import { enableAgent, importArticles, kbId } from '../support/agent';
import { adminJson } from '../support/service';
import { until } from '../support/wait';
import { serviceFixture } from '../support/fixture';
import { tenant } from '../support/workspace';
import { centre } from '../eval/eval-set';

// Turns as a customer has them: small talk, a lead in the first message.

const e2e = serviceFixture({ tenant: { name: 'Small talk' } });
const ARTICLES = [
  {
    id: kbId(61),
    title: 'Weather Skip',
    content: 'Weather Skip pauses your sprinkler schedule for 48 hours when rain is forecast. Turn it on under Settings > Watering.',
  },
  { id: kbId(62), title: 'Plans and prices', content: 'The Plus plan costs $5 per month and adds Weather Skip and unlimited zones.' },
  { id: kbId(63), title: 'Student discount', content: 'Students get 15% off the Plus plan for up to 12 months. Sign up with a school email address.' },
];
const credits = async () => (await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', e2e.ws.workspaceId)).credits;

t.before(async () => {
  await importArticles(e2e.dir, e2e.ws, ARTICLES);
  await enableAgent(e2e.ws, { tone: 'friendly', escalation: { enabled: true, keywords: ['human'], after_replies: null } });
});

t.test('greetings and thanks get a short reply in the tone, free, and never hand the chat over', async (t) => {
  const before = await credits();
  const hi = await e2e.ws.api.post('/agent/messages', { message: 'hi there!' });
  t.strictSame([hi.status, hi.body.escalated, hi.body.messages.length, hi.body.credits_used, hi.body.sources], [200, false, 1, 0, []]);
  t.match(hi.body.messages[0], /How can I help/);
  const conversation = hi.body.conversation_id as string;
  const question = await e2e.ws.api.post('/agent/messages', { conversation_id: conversation, message: 'What does Weather Skip do?' });
  t.strictSame([question.body.escalated, question.body.sources[0]], [false, 'Weather Skip'], 'the next question is answered, not silenced');
  const thanks = await e2e.ws.api.post('/agent/messages', { conversation_id: conversation, message: 'thanks, that is all!' });
  t.strictSame([thanks.body.escalated, thanks.body.messages.length, thanks.body.credits_used], [false, 1, 0]);
  t.match(thanks.body.messages[0], /welcome/i);
  // Thanks and goodbye in other forms of their words, after an answer: not a follow-up repeating it (an outsider's trial)
  for (const [message, reply] of [
    ['Thanks so much, that really helped!', /welcome/i],
    ['Bye, have a lovely day', /^Bye for now/],
    // Regional thanks and wishing the agent well (two outsiders' trials: declined as off-topic)
    ['thanks heaps, that sorted it out', /welcome/i],
    ['you guys are legends, have a good one', /^Bye for now/],
    ['Have a great weekend!', /^Bye for now/],
  ] as const) {
    const r = await e2e.ws.api.post('/agent/messages', { conversation_id: conversation, message });
    t.strictSame([r.body.messages.length, r.body.credits_used, r.body.sources], [1, 0, []], message);
    t.match(r.body.messages[0], reply, message);
  }
  for (const [message, reply] of [
    ['Hola!', /^¡Hola! ¿En qué te puedo ayudar hoy\?$/],
    ['danke schön', /^Gern geschehen!/],
    ['merci beaucoup', /^Avec plaisir !/],
    ['ok bye', /^Bye for now/],
  ] as const) {
    const r = await e2e.ws.api.post('/agent/messages', { message });
    t.strictSame([r.body.escalated, r.body.messages.length, r.body.credits_used], [false, 1, 0], message);
    t.match(r.body.messages[0], reply, `${message}: answered in its language`);
  }
  t.equal(await credits(), before - 1, 'only the answered question was charged');
  const conv = (await e2e.ws.api.get(`/conversations/${conversation}`)).body;
  t.equal(conv.assignee, null, 'still with the agent');
});

const missing = missingModelFiles(defaultModelDir());
t.test(
  'an off-topic request gets a free decline in the tone, cites nothing and never hands the chat over',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    const before = await credits();
    // Both share words with the help centre ("forecast", "plan"), so only their meaning tells them apart.
    for (const message of [
      'Tell me a joke about the rain forecast.',
      'Can you recommend a good movie for tonight?',
      'Which stocks should I buy for my retirement plan?',
      // Trivia, sums and life advice: a help centre's nearest passage is no answer to them.
      "what's the meaning of life?",
      'what is 15% of 80?',
      'should I quit my job?',
      // Nothing in the help centre near it, and no request near enough either (an outsider's trial: handed to a person)
      'Who won the 1998 World Cup?',
      // Emoji alone ask nothing (an outsider's trial: answered from the nearest passage, and charged)
      '🚗❓💸',
    ]) {
      const r = await e2e.ws.api.post('/agent/messages', { message });
      t.strictSame(
        [r.status, r.body.escalated, r.body.messages.length, r.body.credits_used, r.body.sources, r.body.quick_replies],
        [200, false, 1, 0, [], []],
        message,
      );
      t.match(r.body.messages[0], /AI assistant, so I can only help with questions about Small talk/, message);
    }
    t.equal(await credits(), before, 'nothing charged');
    // A customer's own order is about the business though no article is near: not declined as off-topic (an outsider's trial)
    const own = await e2e.ws.api.post('/agent/messages', { message: 'I hit buy by mistake twenty minutes ago, is it too late to stop it?' });
    t.strictSame([own.status, own.body.sources, own.body.escalated, own.body.escalation_reason], [200, [], true, 'no_answer']);
    t.notMatch(own.body.messages.join(' '), /can only help with questions about/);
    // A call asked for is a person asked for: handed over, not declined as off-topic (an outsider's trial)
    const call = await e2e.ws.api.post('/agent/messages', { message: 'My number is 416 555 0123, call me about my sprinkler' });
    t.strictSame([call.status, call.body.escalated, call.body.escalation_reason, call.body.credits_used], [200, true, 'customer_asked', 0]);
  },
);

t.test(
  'a question with slips in its words is answered from the article it means, not declined as off-topic',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // An outsider's trial: declined as off-topic, its two key words read by neither BM25 nor the model.
    const r = await e2e.ws.api.post('/agent/messages', { message: 'do studnets get a discont?' });
    t.strictSame([r.status, r.body.sources, r.body.escalated], [200, ['Student discount'], false]);
    t.match(r.body.messages.join(' '), /15% off/);
    // POST /agent/search puts them right too.
    const found = await e2e.ws.api.post('/agent/search', { query: 'studnets discont', top_k: 1 });
    t.strictSame(
      found.body.data.map((d: { filename: string }) => d.filename),
      ['Student discount'],
    );
  },
);

t.test('a lead in the first message: answered, stored on the customer and the conversation, every consumer healthy', async (t) => {
  const r = await e2e.ws.api.post('/agent/messages', {
    message: 'hello, my email is carol.lead@example.net and I want to know about Weather Skip',
    customer: { external_id: 'lead-carol-1' },
  });
  t.strictSame([r.status, r.body.escalated, r.body.sources[0]], [200, false, 'Weather Skip'], 'the address is not taken for question words');
  const conversation = (await e2e.ws.api.get(`/conversations/${r.body.conversation_id}`)).body;
  t.equal(conversation.customer_email, 'carol.lead@example.net');
  t.equal((await e2e.ws.api.get(`/customers/${conversation.customer_id}`)).body.email, 'carol.lead@example.net');
  // A second write to the same customer before the search index's flush (the projector's queue) fails nothing.
  await e2e.ws.api.post('/agent/messages', { conversation_id: r.body.conversation_id, message: 'my phone is +1 555 010 9999' });
  await until(
    async () => ((await fetch(`${e2e.svc.baseUrl.replace(/\/v1$/, '')}/healthz`).then((h) => h.json())) as { status: string }).status === 'ok',
    5000,
    50,
    'healthz ok',
  );
  t.notOk(
    e2e.svc.output.some((l) => /consumer failed|UNIQUE constraint/.test(l)),
    'no consumer failed',
  );
});

/** A workspace holding a whole help centre of tests/fixtures/eval (or its articles of these titles), its agent on. */
const wholeCentre = async (name: string, business: string, titles?: string[]) => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir, { name: business, workspaceArgs: ['--credits', '100'] });
  await importArticles(e2e.dir, ws, titles ? centre(name).articles.filter((a) => titles.includes(a.title)) : centre(name).articles);
  await enableAgent(ws);
  return ws;
};

/** Each message gets the free decline naming the business, citing nothing. */
const declines = async (t: Test, ws: Awaited<ReturnType<typeof wholeCentre>>, business: string, messages: string[]) => {
  for (const message of messages) {
    const r = await ws.api.post('/agent/messages', { message });
    t.strictSame([r.status, r.body.credits_used, r.body.sources], [200, 0, []], message);
    t.match(r.body.messages[0], new RegExp(`AI assistant, so I can only help with questions about ${business}`), message);
  }
};

t.test(
  'on a whole help centre, a question about life rather than the product is declined, though passages on its subject are near',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // A help centre of the tuning half (tests/fixtures/eval/nestwise): subscriptions to cancel, batteries with a "life".
    const ws = await wholeCentre('nestwise', 'Nestwise');
    await declines(t, ws, 'Nestwise', [
      "what's the meaning of life?",
      'should I quit my job?',
      'what is 15% of 80?',
      'how do magnets work?',
      'is coffee bad for you?',
    ]);
  },
);

t.test(
  'on a whole help centre, everyday questions no list of requests named are declined, and a question near one of them is still answered',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // A help centre of the tuning half (tests/fixtures/eval/canopy): a kitchen, cleaning, doors, a dog policy, opening hours.
    const ws = await wholeCentre('canopy', 'Canopy');
    await declines(t, ws, 'Canopy', [
      'how do I remove a red wine stain from a carpet?',
      "what's the difference between a cold and the flu?",
      'what are some good exercises for back pain?',
      'how do I fix a squeaky door?',
      "what's the best way to clean windows?",
    ]);
    // Some everyday request is about as near to it as the locations article is: declined with no margin.
    const cities = await ws.api.post('/agent/messages', { message: 'In which cities can I find you?' });
    t.strictSame([cities.status, cities.body.sources[0]], [200, 'Our locations and multi-location access']);
  },
);

t.test(
  'on a whole help centre, emoji alone are declined, and a dog is asked of the pets policy',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // An outsider's car-rental centre (tests/fixtures/eval/roadwise): "🚗❓💸" was answered from the drivers article and
    // charged, "Can I bring my dog along?" declined as off-topic (its pets policy never says "dog").
    const ws = await wholeCentre('roadwise', 'Roadwise');
    await declines(t, ws, 'Roadwise', ['🚗❓💸', '🚙💨?!']);
    const dog = await ws.api.post('/agent/messages', { message: 'Can I bring my dog along?' });
    t.strictSame([dog.status, dog.body.sources[0]], [200, 'Smoking, pets and cleaning fees']);
  },
);

t.test(
  "on a whole help centre, an insulting question and a long message are answered, a deal for a group no article names is not, and a name ending in 's' takes the apostrophe alone",
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // An outsider's ferry centre (tests/fixtures/eval/fjordline): the first was declined as off-topic, the second answered with the children's fares.
    const ws = await wholeCentre('fjordline', 'Fjordline Ferries');
    const rude = await ws.api.post('/agent/messages', { message: 'You useless bot, just answer me: how much is a bike, idiot?' });
    t.strictSame([rude.status, rude.body.sources[0], rude.body.messages.join(' ').includes('NOK 150')], [200, 'Bicycles and motorbikes', true]);
    const students = await ws.api.post('/agent/messages', { message: 'Do students get a cheaper fare?' });
    t.strictSame([students.status, students.body.sources], [200, []]);
    // A long message is looked up by its question: its background's words led with the trailer (and, in the trial, the refunds)
    const background =
      'we are a family of four planning a long trip around Scandinavia this summer with our camper and we have many questions, but first some background about us. '.repeat(
        50,
      );
    const long = await ws.api.post('/agent/messages', { message: `${background}So my question is: how long can our motorhome be before it costs extra?` });
    t.strictSame([long.status, long.body.sources], [200, ['Caravans, trailers and motorhomes']]);
    t.match(long.body.messages[0], /Motorhomes are priced by length\. A motorhome up to 7 m/, 'the motorhome first, not the trailer');
    await declines(t, ws, 'Fjordline Ferries', ['🚢🐕❓']);
    const decline = (await ws.api.post('/agent/messages', { message: '🚢🐕❓' })).body.messages[0];
    t.match(decline, /^I'm Fjordline Ferries' AI assistant,/);
  },
);

t.test(
  'on a whole help centre, a price question in Spanish with one number is answered, and a price rise no article announces is not',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // An outsider's parcel-locker centre (tests/fixtures/eval/skapa): the first was declined as off-topic (nearer the
    // request for a sum), the second answered with today's prices (its "any price change" policy read as an announcement).
    const ws = await wholeCentre('skapa', 'Skåpa');
    const spanish = await ws.api.post('/agent/messages', { message: '¿Cuánto cuesta enviar un paquete grande de unos 9 kilos entre dos taquillas?' });
    t.strictSame([spanish.status, spanish.body.sources[0], spanish.body.messages.join(' ').includes('SEK 99')], [200, 'Prices for sending a parcel', true]);
    const rumour = await ws.api.post('/agent/messages', { message: 'I heard your prices are going up in January. What will a small parcel cost next year?' });
    t.strictSame([rumour.status, rumour.body.sources], [200, []]);
  },
);

t.test(
  'a question on the weather in a city the articles name is declined; one on delivering there is answered',
  { skip: missing.length ? `no embedding model (run scripts/fetch-model.sh): missing ${missing.join(', ')}` : false },
  async (t) => {
    // Five articles of an outsider's vet centre (tests/fixtures/eval/pawsome): the delivery fees name Auckland and the
    // weekend, and "what's the weather looking like in Auckland this weekend?" was answered with them.
    const titles = [
      'Pharmacy, online shop and deliveries',
      'Emergencies and after-hours care',
      'Clinic locations and opening hours',
      'Grooming',
      'Boarding at Pawsome Lodge (kennels and cattery)',
    ];
    const ws = await wholeCentre('pawsome', 'Pawsome Vets', titles);
    await declines(t, ws, 'Pawsome Vets', ["what's the weather looking like in Auckland this weekend?"]);
    const delivery = await ws.api.post('/agent/messages', { message: 'Can you deliver to me in Auckland this weekend?' });
    t.strictSame([delivery.status, delivery.body.sources[0]], [200, 'Pharmacy, online shop and deliveries']);
  },
);
