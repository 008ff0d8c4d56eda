import t from 'tap';
import { asksAheadOfTime, asksForADeal, dealAskedFor, unannounced, type Passage } from '@support/agent';

const passage = (text: string): Passage => ({
  id: 'a1#0',
  index: 0,
  articleId: 'a1',
  workspaceId: 'w',
  title: 'Plans and prices',
  heading: null,
  text,
  type: 'public_article',
  isPublic: true,
  customerFacing: true,
});
const PRICES = [passage('Basic costs $5 per month and Pro $12 per month. Students get 20% off Pro with a valid student card.')];

t.test('a question on whether a price or an offer changes some time ahead', async (t) => {
  const ahead = [
    'Are your prices going up any time soon?',
    'Will the Pro plan get more expensive next year?',
    'Are you planning to raise the price of Plus soon?',
    'A friend said the reward for inviting people is about to get bigger. Is that right?',
    'Is there a price increase coming in the future?',
  ];
  const not = [
    "I'm about to change my plan: will my price go up?",
    'How much does Pro cost?',
    'Will my price go up when the trial ends?',
    'Can I upgrade to Pro soon after signing up?',
    '¿Van a subir los precios pronto?',
  ];
  t.strictSame([...ahead, ...not].map(asksAheadOfTime), [...ahead.map(() => true), ...not.map(() => false)]);
});

t.test('such a question is answered only from articles that announce a change', async (t) => {
  // Given articles that state today's prices only
  t.equal(
    unannounced('Are your prices going up any time soon?', () => PRICES),
    true,
  );
  // And once one says what changes, and when
  const announced = [...PRICES, passage('From 1 March 2027, Pro costs $14 per month.')];
  t.equal(
    unannounced('Are your prices going up any time soon?', () => announced),
    false,
  );
  t.equal(
    unannounced('Is Pro going to get more expensive soon?', () => [passage('The price of Pro will increase to $14.')]),
    false,
  );
  // But a policy on changes that may come announces none (an outsider's parcel-locker centre)
  const policy = [...PRICES, passage("We tell you at least 30 days before any price change. If you don't accept the new price, you can cancel.")];
  t.strictSame(
    [
      unannounced('I heard your prices are going up in January. What will a small parcel cost next year?', () => policy),
      unannounced('Are your prices going up any time soon?', () => [...PRICES, passage('Annual price changes take effect with your April bill.')]),
    ],
    [true, false],
  );
});

t.test('a deal asked for someone the articles never name is not answered from them', async (t) => {
  t.strictSame(
    [
      'Do you offer a discount for teachers?',
      'I am at university. Do you have any deal for students?',
      'Do you have a trade-in deal?',
      'Is there a military discount?',
      'Do students get a cheaper fare?',
      'Do seniors pay less on the ferry?',
      'Do you have a discount?',
      'Can my kids get a discount?',
      'Do students get their results by email?',
    ].map(dealAskedFor),
    [['teacher'], ['student'], ['trade'], ['militari'], ['student'], ['senior'], [], ['kid'], []],
  );
  t.equal(
    unannounced('Do students get a cheaper fare?', () => PRICES),
    false,
    'students: named where a price is',
  );
  t.equal(
    unannounced('Do pensioners get a cheaper fare?', () => PRICES),
    true,
    'pensioners: never named',
  );
  t.equal(
    unannounced('Do you offer a discount for teachers?', () => PRICES),
    true,
    'teachers: no article names them',
  );
  t.equal(
    unannounced('Is there a military discount?', () => PRICES),
    true,
  );
  t.equal(
    unannounced('Do you offer a discount for students?', () => PRICES),
    false,
    'students: named',
  );
  t.equal(
    unannounced('Is there a student discount on Pro?', () => PRICES),
    false,
  );
  // Named, but nowhere near a deal or a price (the fifteenth centre): no deal for them is known
  const course = (text: string): Passage => ({ ...passage(text), title: 'Beginner course' });
  const members = course('Members get 10% off clay.');
  const classSize = [members, course('The course costs £245.'), course('There are at most 8 students on a course.')];
  t.equal(
    unannounced('Is there a student discount on the beginner course?', () => classSize),
    true,
  );
  for (const students of ['Students pay £200 for the course.', 'The course is free for students.'])
    t.equal(
      unannounced('Is there a student discount on the beginner course?', () => [members, course(students)]),
      false,
      students,
    );
  // Not a deal for someone: answered from the articles as usual
  for (const message of ['Is there any discount?', 'Do you have a better deal for me?', 'How do I apply the discount for my order?', 'What does Pro cost?'])
    t.equal(
      unannounced(message, () => PRICES),
      false,
      message,
    );
});

t.test('a deal of any kind is not answered from articles that never speak of one', async (t) => {
  t.strictSame(
    [
      'Do you have a promo code at the moment?',
      'Is there any discount?',
      'Are there coupons?',
      'Can I use a coupon on my order?',
      'How do I apply a coupon?',
      'Do you sell gift cards?',
    ].map(asksForADeal),
    [true, true, true, true, false, false],
  );
  // Given articles with no deal in them: a "Save" button is none
  const plain = [passage('Click Save to keep your changes. Basic costs $5 per month.')];
  t.equal(
    unannounced('Do you have a promo code at the moment?', () => plain),
    true,
  );
  // And articles that speak of one, in any of its forms
  for (const text of ['Students get 20% off Pro.', 'Pay yearly and save $10.', 'Enter your promo code at checkout.', 'Bundles come at a discount.'])
    t.equal(
      unannounced('Do you have a promo code at the moment?', () => [passage(text)]),
      false,
      text,
    );
});
