import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, Question } from '@support/agent';
import { hit } from '../support/hits';

/** The grounded responder's sentence choice with the embedding model (`similarity` given), in concise friendly answers. */
const settings: AnswerSettings = { name: 'Aria', tone: 'friendly', response_length: 'concise', custom_instructions: null, model_tier: 'essential' };
const responder = new GroundedResponder();
const ask = (q: Omit<Question, 'settings' | 'history'>): Promise<Answer> => responder.answer({ settings, history: [], ...q });

// With the embedding model: hits carry their similarity, and sentences are scored by `similarity`.
const PLANS = { ...hit('art_plans', 0, 'Plans and pricing', 'Plus', 'You can switch at any time under Account. Plus is $4.99 a month.', 9), similarity: 0.9 };
const PLANS_LIMITS = hit('art_plans', 1, 'Plans and pricing', 'Limits', 'Plus holds 50 devices. History is kept for 30 days on Plus.', 0);
const OTHER = hit('art_other', 0, 'Returns', null, 'Returns are free within 30 days.', 0);

t.test('a question asking how much is answered with the sentence holding an amount, not a closer one without', async (t) => {
  // Given a price, and a sentence the model finds closer (by more than the margin) to "what does it cost"
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('$4.99') ? 0.85 : 0.9));
  // When asked concisely what the plan costs
  const answer = await ask({ message: 'What does the mid-tier plan cost?', hits: [PLANS], similarity });
  // Then the one bubble holds the price
  t.strictSame(answer.messages, ['Hi there! You can switch at any time under Account. Plus is $4.99 a month.']);
  // And a question asking no amount gets the closer sentence alone
  const other = await ask({ message: 'What does the mid-tier plan offer?', hits: [PLANS], similarity });
  t.strictSame(other.messages, ['Hi there! You can switch at any time under Account.']);
});

t.test("an answer may come from a part of the best article that search ranked lower, never from another article's", async (t) => {
  // Given search found the plan's price section, and its article also has a limits section
  const seen: string[] = [];
  const similarity = async (texts: readonly string[]) => {
    seen.push(...texts);
    return texts.map((s) => (s.includes('30 days') ? 0.95 : 0.8));
  };
  const passagesOf = (articleId: string) => [PLANS, PLANS_LIMITS, OTHER].filter((h) => h.passage.articleId === articleId).map((h) => h.passage);
  // When asked how long history is kept on Plus
  const answer = await ask({ message: 'How long does Plus keep my history?', hits: [PLANS], similarity, passagesOf });
  // Then the answer is the limits section's sentence, cited as the same article
  t.strictSame([answer.messages, answer.sources], [['Hi there! History is kept for 30 days on Plus.'], ['Plans and pricing']]);
  // And each sentence was compared after its section's heading; the other article's never was
  t.strictSame(seen, [
    'Plus: You can switch at any time under Account.',
    'Plus: Plus is $4.99 a month.',
    'Limits: Plus holds 50 devices.',
    'Limits: History is kept for 30 days on Plus.',
  ]);
  // And without the article's other passages, only what search found can answer
  const found = await ask({ message: 'How long does Plus keep my history?', hits: [PLANS], similarity });
  t.notMatch(found.messages.join(' '), /30 days/);
});

t.test('a sentence that leans on the one before it comes with it', async (t) => {
  // Given the closest sentence opens with "Then", continuing the one before it
  const LOST = {
    ...hit(
      'art_2fa',
      0,
      'Two-factor authentication',
      'Lost your phone?',
      'Sign in with your password and a backup code. Then set up 2FA on your new phone.',
      9,
    ),
    similarity: 0.9,
  };
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('Then') ? 0.9 : 0.8));
  // When asked concisely how to get back in
  const answer = await ask({ message: 'I lost my phone, how do I get back in?', hits: [LOST], similarity });
  // Then the one bubble holds both, in the article's order
  t.strictSame(answer.messages, ['Hi there! Sign in with your password and a backup code. Then set up 2FA on your new phone.']);
});

t.test('a question the article asks is never a bubble alone: it comes with the sentence answering it', async (t) => {
  // Given an FAQ whose question the model finds closest, its answer far less close (it names nothing)
  const GUESTS = {
    ...hit('art_guests', 0, 'Guests', null, 'Can I bring a guest? Yes, twice a month for free. Guests sign in at reception.', 9),
    similarity: 0.9,
  };
  const faq = async (texts: readonly string[]) => texts.map((s) => (s.includes('Can I bring') ? 0.92 : 0.8));
  // When asked concisely
  const answer = await ask({ message: 'May I bring a friend along?', hits: [GUESTS], similarity: faq });
  // Then the one bubble holds the question with its answer
  t.strictSame(answer.messages, ['Hi there! Can I bring a guest? Yes, twice a month for free.']);
  // And a question with nothing after it in its passage is not a bubble at all
  const ENDS = { ...hit('art_pause', 0, 'Pausing', null, 'You can pause your membership for 2 months. Going travelling?', 9), similarity: 0.9 };
  const last = async (texts: readonly string[]) => texts.map((s) => (s.includes('travelling') ? 0.92 : 0.8));
  const paused = await ask({ message: 'Can I stop my membership for a while?', hits: [ENDS], similarity: last });
  t.strictSame(paused.messages, ['Hi there! You can pause your membership for 2 months.']);
  // And when the answer is the closest, the question before it comes with it
  const answerClosest = async (texts: readonly string[]) => texts.map((s) => (s.includes('twice') ? 0.92 : 0.8));
  const twice = await ask({ message: 'How often can guests come?', hits: [GUESTS], similarity: answerClosest });
  t.strictSame(twice.messages, ['Hi there! Can I bring a guest? Yes, twice a month for free.']);
});

t.test('a question after one value, in any of four languages, is answered with the sentence holding a number', async (t) => {
  // Given a section whose closest sentence to the question holds no number, and one that does
  const LOCKED = {
    ...hit(
      'art_signin',
      0,
      'Signing in',
      'Locked account',
      'Resetting your password unlocks it. After 6 failed attempts your account is locked for 30 minutes.',
      9,
    ),
    similarity: 0.9,
  };
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('30 minutes') ? 0.84 : 0.9));
  for (const message of [
    'When can I try again?',
    '¿Cuándo puedo volver a intentarlo?',
    'Wann kann ich es wieder versuchen?',
    'Quand est-ce que je peux réessayer ?',
  ]) {
    // When asked concisely when one may try again
    const answer = await ask({ message, hits: [LOCKED], similarity });
    // Then the one bubble holds the duration
    t.match(answer.messages[0], /30 minutes/, message);
  }
  // And a question on how to do it gets the closer sentence alone
  const how = await ask({ message: 'How do I get back in?', hits: [LOCKED], similarity });
  t.strictSame(how.messages, ['Hi there! Resetting your password unlocks it.']);
});

t.test('a price or a wait asked in other words is answered with the amount or the duration', async (t) => {
  // Given a plan's price beside a closer sentence without one
  const priced = async (texts: readonly string[]) => texts.map((s) => (s.includes('$4.99') ? 0.85 : 0.9));
  // When asked what it would "run me", or what is "in it for me", then the one bubble holds the price
  for (const message of ['What would the mid-tier plan run me?', "What's in it for me if I go for the mid-tier plan?"])
    t.match((await ask({ message, hits: [PLANS], similarity: priced })).messages, [/Plus is \$4\.99 a month\./], message);
  // Given two sentences with numbers, the closer one a time of day, the other a duration
  const SKIP = {
    ...hit('art_skip', 0, 'Skipping a week', null, 'Skipping closes at 11:59 pm on Wednesday. Weeks can be skipped up to 10 weeks ahead.', 9),
    similarity: 0.9,
  };
  const timed = async (texts: readonly string[]) => texts.map((s) => (s.includes('10 weeks') ? 0.85 : 0.9));
  // When asked how far in advance or into the future, then the one bubble holds the duration
  for (const message of ['How far in advance can I skip deliveries?', 'How far into the future can I skip deliveries?'])
    t.match((await ask({ message, hits: [SKIP], similarity: timed })).messages, [/Weeks can be skipped up to 10 weeks ahead\./], message);
});

t.test("another article's sentence answers only when it is about as close as the best one: it is not padding", async (t) => {
  const balanced = (q: Omit<Question, 'settings' | 'history'>) =>
    responder.answer({ settings: { ...settings, response_length: 'balanced' }, history: [], ...q });
  const returns = { ...OTHER, similarity: 0.895 };
  const passagesOf = (articleId: string) => [PLANS, OTHER].filter((h) => h.passage.articleId === articleId).map((h) => h.passage);
  // Given the best article's sentence at 0.9, and another relevant article's within UNIT_MARGIN of it but not within OTHER_ARTICLE_MARGIN
  const near = (other: number) => async (texts: readonly string[]) => texts.map((s) => (s.includes('Returns') ? other : s.includes('switch') ? 0.9 : 0.8));
  const padded = await balanced({ message: 'Tell me about the mid-tier option', hits: [PLANS, returns], similarity: near(0.875), passagesOf });
  // Then the second bubble is filled from the best article, which alone is cited
  t.strictSame(padded.sources, ['Plans and pricing']);
  // And when it is as close as the best, it answers too
  const both = await balanced({ message: 'Tell me about the mid-tier option', hits: [PLANS, returns], similarity: near(0.895), passagesOf });
  t.strictSame(both.sources, ['Plans and pricing', 'Returns']);
});

t.test('a sentence whose subject is a pronoun shares the words of what it stands for', async (t) => {
  const balanced = (q: Omit<Question, 'settings' | 'history'>) =>
    responder.answer({ settings: { ...settings, response_length: 'balanced' }, history: [], ...q });
  // Given a cancellation table ranked first, and a refunds article whose time is told of "they" (an outsider's pottery studio)
  const TABLE = {
    ...hit('art_cancel', 0, 'Cancelling a class', null, 'More than 72 hours before the class: you get it all. Less than 24 hours before: nothing.', 9),
    similarity: 0.9,
  };
  const REFUNDS = {
    ...hit('art_refunds', 0, 'Payments', null, 'Refunds go back to the card you paid with. They reach your account within 10 working days.', 8),
    similarity: 0.89,
  };
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('72 hours') ? 0.92 : s.includes('They reach') ? 0.9 : 0.8));
  // When asked how long refunds take
  const answer = await balanced({ message: 'How long do refunds take?', hits: [TABLE, REFUNDS], similarity });
  // Then "They reach your account…" shares "refunds" with the sentence before it: it answers, with that sentence
  t.strictSame(answer.sources, ['Cancelling a class', 'Payments']);
  t.match(answer.messages[1], /^Refunds go back to the card you paid with\. They reach your account within 10 working days\./);
  // And at the start of its passage, it shares the title's words
  const OWN = { ...hit('art_refunds', 1, 'Refunds', null, 'They reach your account within 10 working days.', 8), similarity: 0.89 };
  const alone = await balanced({ message: 'How long do refunds take?', hits: [TABLE, OWN], similarity });
  t.strictSame(alone.sources, ['Cancelling a class', 'Refunds']);
});

t.test('a percentage is an amount of money beside a word of price, not a humidity', async (t) => {
  // Given a humidity and a price, the humidity closer to the question
  const CLIMATE = {
    ...hit('art_climate', 0, 'Climate control', null, 'Units stay below 55% humidity. Climate control costs $30 a month more.', 9),
    similarity: 0.9,
  };
  const humid = async (texts: readonly string[]) => texts.map((s) => (s.includes('humidity') ? 0.89 : 0.85));
  // When asked concisely how much extra it is, then the one bubble holds the price
  const price = await ask({ message: 'How much extra is climate control?', hits: [CLIMATE], similarity: humid });
  t.strictSame(price.messages, ['Hi there! Climate control costs $30 a month more.']);
  // Given a discount in percent beside a sentence about as close without a number
  const ISLANDERS = {
    ...hit('art_islanders', 0, 'Islanders', null, 'The card is for people who live on the islands. Card holders get 40% off fares.', 9),
    similarity: 0.9,
  };
  const closer = async (texts: readonly string[]) => texts.map((s) => (s.includes('40%') ? 0.85 : 0.855));
  // When asked what the islander card saves, then the one bubble holds the percentage alone
  const saving = await ask({ message: 'How much does the islander card save me?', hits: [ISLANDERS], similarity: closer });
  t.strictSame(saving.messages, ['Hi there! Card holders get 40% off fares.']);
});

t.test('a share of a price is an amount of money; "bill me" asks for one; "fortnightly" is how often', async (t) => {
  // Given a late fee told as a share of the daily rate, beside a sentence the model finds closer
  const LATE = {
    ...hit(
      'art_late',
      0,
      'Late returns',
      null,
      'Extend the rental in the app before it ends. After the grace period we charge one third of your daily rate for each hour.',
      9,
    ),
    similarity: 0.9,
  };
  const closer = async (texts: readonly string[]) => texts.map((s) => (s.includes('third') ? 0.85 : 0.9));
  // When asked, in either words, what a late return costs, then the one bubble holds the share too
  const both = 'Hi there! Extend the rental in the app before it ends. After the grace period we charge one third of your daily rate for each hour.';
  for (const message of ['How much is the late fee?', 'What do you bill me if I am late?'])
    t.strictSame((await ask({ message, hits: [LATE], similarity: closer })).messages, [both], message);
  // Given how often a membership is billed, beside a closer sentence without a period
  const BILLING = {
    ...hit('art_billing', 0, 'Billing', null, 'Pay by direct debit from a bank account. Memberships are billed fortnightly.', 9),
    similarity: 0.9,
  };
  const nearer = async (texts: readonly string[]) => texts.map((s) => (s.includes('fortnightly') ? 0.85 : 0.9));
  // When asked how often, then the one bubble says fortnightly too
  t.strictSame((await ask({ message: 'How often do you take the money?', hits: [BILLING], similarity: nearer })).messages, [
    'Hi there! Pay by direct debit from a bank account. Memberships are billed fortnightly.',
  ]);
});

t.test('a price by its currency code is an amount; what is asked is read from the question, not from what the message tells', async (t) => {
  // Given a price written "NOK 150", beside a sentence the model finds closer
  const BIKES = { ...hit('art_bikes', 0, 'Bicycles', null, 'Bicycles board through the car lane. A bicycle costs NOK 150 one way.', 9), similarity: 0.9 };
  const closer = async (texts: readonly string[]) => texts.map((s) => (s.includes('NOK') ? 0.81 : 0.9));
  // When asked what a bike costs, then the one bubble holds the price too
  t.strictSame((await ask({ message: 'How much is a bike?', hits: [BIKES], similarity: closer })).messages, [
    'Hi there! Bicycles board through the car lane. A bicycle costs NOK 150 one way.',
  ]);
  // Given a height limit beside a closer sentence without a number
  const HEIGHT = {
    ...hit('art_height', 0, 'Car sizes', null, 'Measure your car before booking. Cars over 1.85 m high are large vehicles.', 9),
    similarity: 0.9,
  };
  const nearer = async (texts: readonly string[]) => texts.map((s) => (s.includes('1.85') ? 0.85 : 0.9));
  // When asked how tall a car may be, then the one bubble holds the limit too
  t.strictSame((await ask({ message: 'How tall can my car be?', hits: [HEIGHT], similarity: nearer })).messages, [
    'Hi there! Measure your car before booking. Cars over 1.85 m high are large vehicles.',
  ]);
  // Given a charge the model finds closer than the height limit
  const CHECK_IN = {
    ...hit('art_check_in', 0, 'Car sizes', null, 'A car bigger than booked pays NOK 200 at the terminal. Cars over 1.85 m high are large vehicles.', 9),
    similarity: 0.9,
  };
  const charge = async (texts: readonly string[]) => texts.map((s) => (s.includes('NOK') ? 0.89 : 0.88));
  // When the customer tells of paying, then asks how tall: the height counts as much as the charge
  const told = await ask({ message: 'They made me pay extra at check-in. How tall can a car be?', hits: [CHECK_IN], similarity: charge });
  t.strictSame(told.messages, ['Hi there! A car bigger than booked pays NOK 200 at the terminal. Cars over 1.85 m high are large vehicles.']);
});

t.test("the cheapest of a table whose rows have several cells is read from each row's first price", async (t) => {
  // Given a cabin table whose rows start with the beds, a dearer row the closest to the question
  const CABINS = {
    ...hit(
      'art_cabins',
      0,
      'Cabins',
      null,
      '| Cabin | Beds | Bergen – Hirtshals | Day routes |\n|---|---|---|---|\n| Sea-view cabin | 4 | NOK 1,690 | NOK 690 |\n| Inside cabin | 2 | NOK 990 | NOK 450 |\n| Suite | 2 | NOK 3,490 | not available |',
      9,
    ),
    similarity: 0.9,
  };
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('Sea-view') ? 0.9 : 0.8));
  // When asked for the cheapest cabin, then the inside cabin's row is in the answer
  const answer = await ask({ message: "What's the cheapest cabin?", hits: [CABINS], similarity });
  t.match(answer.messages[0], /Inside cabin: Beds 2; Bergen – Hirtshals NOK 990/);
  // And a price column named in four words ("UK price per month") is read as well: the table
  // answers first, before a closer passage that names no price
  const PLANS = {
    ...hit(
      'art_plans',
      1,
      'Plans',
      null,
      '| Plan | Data per month | UK price per month | Ireland price per month |\n|---|---|---|---|\n| Max | 100GB | £16 | €20 |\n| Lite | 8GB | £8 | €10 |',
      8,
    ),
    similarity: 0.88,
  };
  const INTRO = { ...hit('art_plans', 0, 'Plans', null, 'Our plans give you calls, texts and data without a phone.', 9), similarity: 0.9 };
  const plans = await ask({
    message: 'What is your cheapest plan?',
    hits: [INTRO, PLANS],
    similarity: async (texts) => texts.map((s) => (s.includes('Our plans') ? 0.9 : 0.85)),
  });
  t.match(plans.messages[0], /^Hi there! Lite: Data per month 8GB; UK price per month £8/);
});
