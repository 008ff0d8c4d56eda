import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, inSubject, leansOnPart, Question, questionParts } from '@support/agent';
import { hit } from '../support/hits';

t.test('a message with two or three questions is split into them; anything else is one question', async (t) => {
  const texts = (message: string) => questionParts(message).map((p) => p.text);
  t.strictSame(texts("What's the yearly price of Pro, and how many days of history does it keep?"), [
    "What's the yearly price of Pro",
    'how many days of history does it keep?',
  ]);
  t.strictSame(texts('How much is shipping to Canada? Do you ship to Mexico?'), ['How much is shipping to Canada?', 'Do you ship to Mexico?']);
  t.strictSame(texts('How do I pause my plan? And can I get a refund for this month? Also, where do I find my invoices?'), [
    'How do I pause my plan?',
    'And can I get a refund for this month?',
    'Also, where do I find my invoices?',
  ]);
  // A question word after its preposition opens a question too (an outsider's trial: the truck's age limit was lost)
  t.strictSame(texts('How old must I be to drive your truck, and until when can I cancel my booking without a fee?'), [
    'How old must I be to drive your truck',
    'until when can I cancel my booking without a fee?',
  ]);
  t.strictSame(texts('What time do you open, and in which cities?'), ['What time do you open', 'in which cities?']);
  // A question after what the customer tells first (the fourteenth centre: the lock-in was lost)
  t.strictSame(texts("I'm on the monthly plan - what does the cheapest one cost and is there a lock-in period?"), [
    "I'm on the monthly plan - what does the cheapest one cost",
    'is there a lock-in period?',
  ]);
  t.strictSame(texts('Hi, how do I cancel and can I get a refund?'), ['Hi, how do I cancel', 'can I get a refund?']);
  // One question with "and" inside it, a question and a remark, a single word of substance, four questions
  for (const one of [
    'Is it free for students and for children?',
    'What voltage and amperage does the power supply need?',
    'Is it free? I mean for students',
    'Is it free? And why?',
    'Is it free? Or what?',
    'How do I reset the hub? Can I keep my scenes? Where is the button? Will it lose Wi-Fi?',
  ]) {
    t.strictSame(texts(one), [one], one);
  }
});

t.test('a part that leans on the one before it is searched with it', async (t) => {
  const parts = questionParts('When I export my data, how long does the link take to arrive, and how long does it work?');
  t.strictSame(parts, [
    { text: 'When I export my data, how long does the link take to arrive', query: 'When I export my data, how long does the link take to arrive' },
    { text: 'how long does it work?', query: 'When I export my data, how long does the link take to arrive\nhow long does it work?' },
  ]);
  // "one" is read as the thing it stands for, and searched without the part before (whose answer came back)
  t.strictSame(questionParts('How long is a crown guaranteed, and how much does one cost?')[1], {
    text: 'how much does crown cost?',
    query: 'how much does crown cost?',
  });
  t.strictSame(questionParts('Can I rent the small van for a day, and is there a cheaper one?')[1], {
    text: 'is there a cheaper small van?',
    query: 'is there a cheaper small van?',
  });
  t.strictSame(questionParts('How long does a gift card last, and how much can I put on one?')[1].text, 'how much can I put on gift card?');
  // "one" as a number is not a thing named before
  t.strictSame(questionParts('How much is a room, and is there a fee for one night?')[1].text, 'is there a fee for one night?');
  t.strictSame(questionParts('How much is a room, and is there a one-off fee?')[1].text, 'is there a one-off fee?');
  // With nothing named after "a" or "the", the part before is searched with it
  t.strictSame(questionParts('How long are fillings guaranteed, and how much does one cost?')[1], {
    text: 'how much does one cost?',
    query: 'How long are fillings guaranteed\nhow much does one cost?',
  });
  // A part that stands on its own is searched alone
  t.strictSame(questionParts('How much is Plus? Do gift cards ever expire?')[1], { text: 'Do gift cards ever expire?', query: 'Do gift cards ever expire?' });
  // A part of three words of substance or fewer names no subject of its own: searched with the part before (the fifteenth centre)
  t.strictSame(questionParts('What does the six-week course cost, and is the clay included?')[1], {
    text: 'is the clay included?',
    query: 'What does the six-week course cost\nis the clay included?',
  });
  t.strictSame(
    questionParts('How many kids can come to a party, and how far ahead must we book?')[1].query,
    'How many kids can come to a party\nhow far ahead must we book?',
  );
});

t.test("a part that leans on the one before is answered from that part's subject when the subject speaks of it", async (t) => {
  const parts = questionParts('is there something I can add for the attic, and what would it cost?');
  t.strictSame(parts.map(leansOnPart), [false, true]);
  t.strictSame(questionParts('How much is Plus? Do gift cards ever expire?').map(leansOnPart), [false, false]);
  // Given the first part answered from the booster article, and the second's search led by the installation fee
  const BOOSTER = hit('art_booster', 0, 'Mesh Boosters', null, 'A booster covers upstairs rooms.', 9);
  const BOOSTER_PRICE = hit('art_booster', 1, 'Mesh Boosters', 'Price', 'Each booster costs €5 per month.', 8);
  const FEE = hit('art_install', 0, 'Installation', null, 'A missed appointment costs €60.', 9.5);
  const STEPS = hit('art_booster', 2, 'Mesh Boosters', null, 'Plug the booster in.', 8);
  // When the second part ("what would it cost") is kept to the subject
  // Then only the subject's passages answer it, when one of them holds its word as the other's best does
  t.strictSame(inSubject('what would it cost', [BOOSTER], [FEE, BOOSTER_PRICE, STEPS]), [BOOSTER_PRICE, STEPS]);
  // And not when none of the subject's passages found holds one of its words
  t.strictSame(inSubject('what would it cost', [BOOSTER], [FEE, STEPS]), [FEE, STEPS]);
  // And not when another article's best holds more of them
  const DELIVERY = hit('art_delivery', 0, 'Delivery', null, 'Delivery to the attic costs €9.', 9.5);
  t.strictSame(inSubject('what would delivery to the attic cost', [BOOSTER], [DELIVERY, BOOSTER_PRICE]), [DELIVERY, BOOSTER_PRICE]);
  // And the hits stay as found when the subject already leads them, or is not among them, or the part before found nothing
  t.strictSame(inSubject('what would it cost', [BOOSTER], [BOOSTER_PRICE, FEE]), [BOOSTER_PRICE, FEE]);
  t.strictSame(inSubject('what would it cost', [BOOSTER], [FEE]), [FEE]);
  t.strictSame(inSubject('what would it cost', [], [FEE, BOOSTER_PRICE]), [FEE, BOOSTER_PRICE]);
});

const settings: AnswerSettings = { name: 'Aria', tone: 'friendly', response_length: 'balanced', custom_instructions: null, model_tier: 'essential' };
const responder = new GroundedResponder();
const ask = (q: Omit<Question, 'settings' | 'history'>, length: AnswerSettings['response_length'] = 'balanced'): Promise<Answer> =>
  responder.answer({ settings: { ...settings, response_length: length }, history: [], ...q });

const PRICE = { ...hit('art_plans', 0, 'Plans', null, 'Plus costs $49 a year. Plans renew automatically.', 9), similarity: 0.9 };
const HISTORY = { ...hit('art_history', 0, 'Event history', null, 'Plus keeps 30 days of history. Clips can be downloaded.', 9), similarity: 0.9 };
const near = (word: string) => async (texts: readonly string[]) => texts.map((s) => (s.includes(word) ? 0.92 : 0.8));

t.test('each question of a message is answered from what it finds, in its share of the bubbles', async (t) => {
  // Given a two-part question whose whole-message search finds only the price article
  const message = 'How much is Plus per year, and how many days of history does it keep?';
  const parts = [
    { message: 'How much is Plus per year', hits: [PRICE], similarity: near('$49') },
    { message: 'how many days of history does it keep?', hits: [HISTORY], similarity: near('30 days') },
  ];
  // When it is answered part by part, balanced
  const answer = await ask({ message, hits: [PRICE], similarity: near('$49'), parts });
  // Then one bubble answers each part, and both articles are cited
  t.strictSame(
    [answer.messages, answer.sources],
    [
      ['Hi there! Plus costs $49 a year.', 'Plus keeps 30 days of history. I hope that helps!'],
      ['Plans', 'Event history'],
    ],
  );
  // And a concise answer holds both in its one bubble
  const concise = await ask({ message, hits: [PRICE], similarity: near('$49'), parts }, 'concise');
  t.strictSame(concise.messages, ['Hi there! Plus costs $49 a year. Plus keeps 30 days of history.']);
  // And without the parts, the whole message's answer misses the history
  const whole = await ask({ message, hits: [PRICE], similarity: near('$49') });
  t.notMatch(whole.messages.join(' '), /30 days/);
});

t.test('when only one part finds an answer, the whole message is answered as one question', async (t) => {
  const message = 'How much is Plus per year, and can the hub water my garden?';
  const parts = [
    { message: 'How much is Plus per year', hits: [PRICE], similarity: near('$49') },
    { message: 'can the hub water my garden?', hits: [], similarity: near('garden') },
  ];
  const answer = await ask({ message, hits: [PRICE], similarity: near('$49'), parts });
  const whole = await ask({ message, hits: [PRICE], similarity: near('$49') });
  t.strictSame(answer, whole);
  // The whole answer's room (filled from the article), not the first part's share (its one matching sentence)
  t.strictSame(answer.messages, ['Hi there! Plus costs $49 a year. Plans renew automatically. I hope that helps!']);
});

t.test('a part whose best sentence an earlier part gave answers with its next', async (t) => {
  // Given two parts whose searches find the same passage, both closest to its first sentence
  const PLAN = { ...hit('art_plan', 0, 'Care Plan', null, 'The plan spreads the cost. There is a minimum term of 12 months.', 9), similarity: 0.9 };
  const scored = (best: number, term: number) => async (texts: readonly string[]) =>
    texts.map((s) => (s.includes('spreads') ? best : s.includes('minimum') ? term : 0.8));
  const message = 'What does the plan cost, and is there a lock-in period?';
  const parts = [
    { message: 'What does the plan cost', hits: [PLAN], similarity: scored(0.95, 0.85) },
    { message: 'is there a lock-in period?', hits: [PLAN], similarity: scored(0.95, 0.9) },
  ];
  // When it is answered part by part
  const answer = await ask({ message, hits: [PLAN], similarity: scored(0.95, 0.85), parts });
  // Then the second part gives the minimum term rather than nothing
  t.strictSame(answer.messages, ['Hi there! The plan spreads the cost.', 'There is a minimum term of 12 months. I hope that helps!']);
});

t.test("a part that leans on the one before is answered from the article that part's answer cites", async (t) => {
  // Given "…is there something I can add, and what would it cost?", whose second part's search is led by another article's fee
  const BOOSTER = { ...hit('art_booster', 0, 'Mesh Boosters', null, 'A booster covers upstairs rooms.', 9), similarity: 0.9 };
  const PRICE = { ...hit('art_booster', 1, 'Mesh Boosters', 'Price', 'Each booster costs €5 per month.', 8), similarity: 0.89 };
  const FEE = { ...hit('art_install', 0, 'Installation', null, 'A missed appointment costs €60.', 9.5), similarity: 0.9 };
  const message = 'is there something I can add for the attic, and what would it cost?';
  const parts = (leans: boolean) => [
    { message: 'is there something I can add for the attic', hits: [BOOSTER], similarity: near('upstairs') },
    { message: 'what would it cost?', hits: [FEE, PRICE], leans, similarity: near('€') },
  ];
  // When the second part leans on the first
  const answer = await ask({ message, hits: [BOOSTER], similarity: near('upstairs'), parts: parts(true) });
  // Then its price is the booster's, and only the booster's article is cited
  t.strictSame(
    [answer.messages, answer.sources],
    [['Hi there! A booster covers upstairs rooms.', 'Each booster costs €5 per month. I hope that helps!'], ['Mesh Boosters']],
  );
  // And a part that stands on its own keeps what its search found
  const alone = await ask({ message, hits: [BOOSTER], similarity: near('upstairs'), parts: parts(false) });
  t.strictSame(alone.sources, ['Mesh Boosters', 'Installation']);
});
