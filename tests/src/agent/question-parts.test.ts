import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, Question, questionParts } from '@support/agent';
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
  // A part that stands on its own is searched alone
  t.strictSame(questionParts('How much is Plus? Do you ship to Canada?')[1], { text: 'Do you ship to Canada?', query: 'Do you ship to Canada?' });
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
