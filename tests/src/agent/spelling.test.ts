import fc from 'fast-check';
import t from 'tap';
import { KnowledgeIndex, oneEditApart } from '@support/agent';
import { indexedArticle } from '../support/hits';
import { checkProperty, expectSame, propertySeed } from '../support/property';

// A customer's slips are put right against the help centre's own words (knowledge/spelling.ts).

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

/** Optimal string alignment distance, as written in the textbook: the reference for oneEditApart. */
const osa = (a: string, b: string): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
};

t.test('two words are one edit apart exactly when their distance is 1 (a letter dropped, added, changed, or two neighbours swapped)', async () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
  // Pairs near each other as well as apart: a word and one edit of it.
  const near = word.chain((w) =>
    fc.tuple(
      fc.constant(w),
      fc
        .nat({ max: w.length })
        .chain((i) =>
          fc.constantFrom(
            w.slice(0, i) + w.slice(i + 1),
            w.slice(0, i) + 'a' + w.slice(i),
            w.slice(0, i) + 'c' + w.slice(i + 1),
            w.slice(0, i) + w.slice(i + 1, i + 2) + w.slice(i, i + 1) + w.slice(i + 2),
          ),
        ),
    ),
  );
  await checkProperty(
    seed,
    fc.property(fc.oneof(near, fc.tuple(word, word)), ([a, b]) => expectSame(oneEditApart(a, b), osa(a, b) === 1, `${a} / ${b}`)),
    2000,
  );
});

const article = indexedArticle;

const index = new KnowledgeIndex();
index.upsert(article('kb_1', 'Student discount', 'Students get 15% off. There is no discount on the building pass.'));
index.upsert(
  article('kb_2', 'Opening hours', 'The building opens at 7:00. Apply for a locker at reception. Bikes go in the parks; spare parts are sold at reception.'),
);
index.upsert(article('kb_3', 'Override', 'Staff use the override passcode.', { type: 'internal_article', is_public: false }));
const customer = (text: string) => index.spellChecked('ws_r', text, { customerFacing: true });

t.test('a slip is put right to the one word of the help centre an edit away', async (t) => {
  t.strictSame(customer('do studnets get a discont?'), 'do students get a discount?');
  t.strictSame(customer('Can I get into the bulding at 6?'), 'Can I get into the building at 6?');
  t.strictSame(customer('studnets discont'), 'students discount', 'a query of key words alone');
  t.strictSame(customer('Do studentz get it?'), 'Do students get it?', 'a letter changed reads before a letter typed in');
  t.strictSame(customer('Can I aplly?'), 'Can I apply?');
});

t.test('what is not a slip is left as it is', async (t) => {
  t.strictSame(customer('Do you have three lockers?'), 'Do you have three lockers?', 'an English word ("there" is an edit away)');
  t.strictSame(customer('Can I bring an apple?'), 'Can I bring an apple?', 'an English word ("apply" is an edit away)');
  t.strictSame(customer('Is the building open?'), 'Is the building open?', "the help centre's own word");
  t.strictSame(customer('Do you renting bildings?'), 'Do you renting bildings?', 'two edits away, or only a form of a word the articles hold');
  t.strictSame(customer('Where are the parns?'), 'Where are the parns?', 'two words an edit away tie ("parks", "parts")');
  t.strictSame(customer('Do you have a xtudent price?'), 'Do you have a xtudent price?', 'its first letter is not changed');
  t.strictSame(customer('Do you sell Studnets passes?'), 'Do you sell Studnets passes?', 'a name: a capitalised word inside a sentence');
  t.strictSame(customer('Studnets: do you have a discont?'), 'students: do you have a discount?', 'at the start of a sentence, a word');
  t.strictSame(customer('DO STUDNETS GET IT?'), 'DO students GET IT?', 'in capitals, a word');
  t.strictSame(customer('¿Hay descuento para estudiantes?'), '¿Hay descuento para estudiantes?', 'another language');
  t.strictSame(customer('What is the overide passcode?'), 'What is the overide passcode?', "a staff-only article's word is not a customer's");
  t.strictSame(index.spellChecked('ws_r', 'What is the overide passcode?'), 'What is the override passcode?', 'it is for staff');
  t.strictSame(index.spellChecked('ws_none', 'do studnets get a discont?'), 'do studnets get a discont?', 'a workspace without articles');
});

t.test("a word running two of the help centre's words together is split into them", async (t) => {
  const compounds = new KnowledgeIndex();
  compounds.upsert(article('kb_1', 'Registering', 'There is no waiting list. Sign up online, then check in at the desk for your time slot.'));
  compounds.upsert(article('kb_2', 'Cars', 'Parking costs $5. The car wash is free. Washing the van costs $9.'));
  const asked = (text: string) => compounds.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(asked('Is there a waitlist?'), 'Is there a wait list?', 'each part held in some form ("waiting")');
  t.strictSame(asked('Where do I checkin for my timeslot?'), 'Where do I check in for my time slot?', 'a short particle ends it');
  t.strictSame(asked('Is there a carwash?'), 'Is there a car wash?');
  t.strictSame(asked('Is there a carbus?'), 'Is there a carbus?', 'a part the help centre does not hold');
  t.strictSame(asked('Is there a vanwash?'), 'Is there a van wash?');
  const lots = new KnowledgeIndex();
  lots.upsert(article('kb_3', 'Lots', 'Book a time slot. Each lot lists its times.'));
  t.strictSame(
    lots.spellChecked('ws_r', 'Can I book a timeslot?', { customerFacing: true }),
    'Can I book a timeslot?',
    'two ways to split it ("time slot", "times lot") is none',
  );
  t.strictSame(asked('Can I park my hovercraft?'), 'Can I park my hovercraft?', 'an English word');
  // Past 50 letters a "word" is no slip, and is not split (trying its splits took time quadratic in its length)
  const long = new KnowledgeIndex();
  long.upsert(article('kb_4', 'Words', 'Antidisestablishmentarianism is long. Supercalifragilisticexpialidocious is longer. Refunds are quick.'));
  const longAsked = (text: string) => long.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(longAsked('refundssupercalifragilisticexpialidocious'), 'refunds supercalifragilisticexpialidocious', '41 letters');
  t.strictSame(
    longAsked('antidisestablishmentarianismsupercalifragilisticexpialidocious'),
    'antidisestablishmentarianismsupercalifragilisticexpialidocious',
    '62',
  );
});

t.test('shorthand is spelt out when the help centre spells it out', async (t) => {
  const paying = new KnowledgeIndex();
  paying.upsert(article('kb_1', 'Paying', 'We accept Visa and American Express. A class lasts 2 hours. Open Monday to Friday.'));
  const asked = (text: string) => paying.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(asked('Do you take Amex?'), 'Do you take american express?', 'read as a name, and spelt out all the same');
  t.strictSame(asked('how many hrs is a class'), 'how many hours is a class');
  t.strictSame(asked('Write to hrs@studio.example or see studio.example/hrs'), 'Write to hrs@studio.example or see studio.example/hrs', 'an address, a link');
  t.strictSame(asked("c'mon, how many hrs is a class?"), "c'mon, how many hours is a class?", 'in a contraction, not ("mon")');
  t.strictSame(asked('is a class 3hrs?'), 'is a class 3hours?', 'after a number, spelt out');
  t.strictSame(asked('Can I book an appt?'), 'Can I book an appt?', 'the help centre never says "appointment"');
  const amex = new KnowledgeIndex();
  amex.upsert(article('kb_2', 'Paying', 'We take Amex, and American Express gift cards too.'));
  t.strictSame(amex.spellChecked('ws_r', 'Do you take Amex?', { customerFacing: true }), 'Do you take Amex?', 'its own word');
});

t.test('a letter left out reads before a letter typed in, whichever word more passages hold', async (t) => {
  const gym = new KnowledgeIndex();
  gym.upsert(article('kb_1', 'Guests', 'Guests train free. Towels are free. Parking is free.'));
  gym.upsert(article('kb_2', 'Freezing', 'You can freeze your membership for up to 12 weeks.'));
  t.strictSame(gym.spellChecked('ws_r', 'how much to freze my membership', { customerFacing: true }), 'how much to freeze my membership');
});

t.test('a slip in a question word is put right, in English only', async (t) => {
  const app = new KnowledgeIndex();
  app.upsert(article('kb_1', 'The app', 'The app needs iOS 16 or Android 11. A keypad locks after 5 wrong codes.'));
  const asked = (text: string) => app.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(asked('wich android version do I need for the app'), 'which android version do I need for the app');
  t.strictSame(asked('Hw many wrong codes lock the keypad?'), 'How many wrong codes lock the keypad?', 'its capital kept');
  t.strictSame(asked('Wen kann ich anrufen, und wie lange dauert es?'), 'Wen kann ich anrufen, und wie lange dauert es?', 'a German word');
  t.strictSame(asked('Write to wat@shop.example'), 'Write to wat@shop.example', 'an address');
});

t.test('a pet by its kind, a plan by another name, a membership put on hold: in the words of a centre that says otherwise', async (t) => {
  // Given a gym (an outsider's trial) that speaks of pets, tiers and memberships, and of freezing one
  const gym = new KnowledgeIndex();
  gym.upsert(article('kb_1', 'Memberships', 'Every membership tier is weekly. Pets are not allowed. You can freeze your membership for 12 weeks.'));
  const asked = (text: string) => gym.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(asked('Can I bring my dog along?'), 'Can I bring my pet along?');
  t.strictSame(asked('Which plan is the cheapest?'), 'Which membership is the cheapest?');
  t.strictSame(asked('Can I plan my visit?'), 'Can I plan my visit?', 'a verb');
  t.strictSame(asked('Can I put my membership on hold?'), 'Can I freeze my membership on hold?');
  t.strictSame(asked('I was on hold for an hour'), 'I was on hold for an hour', 'on hold on the phone');
  // And a centre that says "plan" and "dog" keeps them
  const shop = new KnowledgeIndex();
  shop.upsert(article('kb_2', 'Plans', 'Our Basic plan costs $5. Dogs ride free. Every membership renews.'));
  t.strictSame(shop.spellChecked('ws_r', 'Which plan is the cheapest for my dog?', { customerFacing: true }), 'Which plan is the cheapest for my dog?');
});

t.test('after an article changes, its words are the ones a slip is put right to', async (t) => {
  const changing = new KnowledgeIndex();
  changing.upsert(article('kb_1', 'Parking', 'Parking costs $5 a day.'));
  t.strictSame(changing.spellChecked('ws_r', 'Can I park a caravvan?', { customerFacing: true }), 'Can I park a caravvan?');
  changing.upsert(article('kb_2', 'Caravans', 'A caravan space costs $9 a day.'));
  t.strictSame(changing.spellChecked('ws_r', 'Can I park a caravvan?', { customerFacing: true }), 'Can I park a caravan?');
});

t.test("a customer's word for what the help centre names otherwise is put in the centre's words", async (t) => {
  const shop = new KnowledgeIndex();
  shop.upsert(
    article(
      'kb_1',
      'Gift cards',
      'Gift cards never expire. Dogs are welcome when you visit. Ask for a refund within 30 days. Register for an account online. Cancel any time. Call us, or order food online. Exchange an item in store. Lost items are kept for 30 days. In bad weather we may close. Residents get 10% off. Reception opens at 8:00.',
    ),
  );
  const asked = (text: string) => shop.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(asked('Do your vouchers run out?'), 'Do your gift cards expire?');
  t.strictSame(asked('Can I bring my puppy?'), 'Can I bring my dog?');
  t.strictSame(asked('How do I get my money back?'), 'How do I get my refund?');
  t.strictSame(asked('When can I come and see my dog?'), 'When can I visit my dog?');
  t.strictSame(asked('Can I stop by on Sunday?'), 'Can I visit on Sunday?');
  t.strictSame(asked('How do we sign up with you?'), 'How do we register with you?');
  t.strictSame(asked('I want to quit — how much notice do I give?'), 'I want to cancel — how much notice do I give?');
  t.strictSame(asked('How do I quit my membership?'), 'How do I cancel my membership?');
  t.strictSame(asked('Should I quit my job?'), 'Should I quit my job?', 'nothing of the shop is quit');
  t.strictSame(asked('Who do I ring about a refund?'), 'Who do I call about a refund?');
  t.strictSame(asked('Can I ring you on Sunday?'), 'Can I call you on Sunday?');
  t.strictSame(asked('The ring on my hub is flashing.'), 'The ring on my hub is flashing.', 'a ring, not a call');
  t.strictSame(asked('Can I grab a bite to eat?'), 'Can I grab food?');
  t.strictSame(asked('Can I swap my order?'), 'Can I exchange my order?');
  t.strictSame(asked('Are you open in a storm?'), 'Are you open in a weather?');
  t.strictSame(asked('Any deal for locals?'), 'Any deal for residents?');
  t.strictSame(asked('I left my jacket on the bus, can I get it back?'), 'I lost my jacket on the bus, can I get it back?');
  t.strictSame(asked('I forgot my reading glasses at the till'), 'I lost my reading glasses at the till');
  t.strictSame(asked('I left a review on your site'), 'I left a review on your site', "not one's own thing left behind");
  t.strictSame(asked('I left my job last week'), 'I left my job last week', 'left, not left somewhere');
  t.strictSame(asked('What if we run out of gift cards?'), 'What if we run out of gift cards?', '"run out of": used up, not expired');
  t.strictSame(asked('How long will you hang on to my bag?'), 'How long will you kept my bag?', "the centre's word, as it holds it");
  t.strictSame(asked('Hold on, is it free?'), 'Hold on, is it free?', 'waiting, not keeping');
  t.strictSame(asked('Is anyone at the front desk on Sunday?'), 'Is anyone at the reception on Sunday?');
  t.strictSame(asked('Can I bring my kitten?'), 'Can I bring my kitten?', 'the centre never says "cat"');
  t.strictSame(asked('Write to voucher@shop.example'), 'Write to voucher@shop.example', 'an address');
  const carrier = new KnowledgeIndex();
  carrier.upsert(article('kb_5', 'Calling abroad', 'Calls to the USA cost 10p a minute, to Ireland 25p. A 30-day rolling plan costs £2 more.'));
  const dialled = (text: string) => carrier.spellChecked('ws_r', text, { customerFacing: true });
  t.strictSame(dialled('how much to ring an American number?'), 'how much to call an usa number?', "a people's word, capitalised, for the country");
  t.strictSame(dialled('How much is month-to-month?'), 'How much is rolling?');
  t.strictSame(dialled('Is there a French version?'), 'Is there a French version?', 'a language, not a country');
  t.strictSame(dialled('My Canadian friend'), 'My Canadian friend', 'a country the centre never names');
  const both = new KnowledgeIndex();
  both.upsert(article('kb_2', 'Vouchers', 'Vouchers last a year. Gift cards never expire.'));
  t.strictSame(both.spellChecked('ws_r', 'Do vouchers run out?', { customerFacing: true }), 'Do vouchers expire?', 'its own word kept');
  const signs = new KnowledgeIndex();
  signs.upsert(article('kb_3', 'Newsletter', 'Sign up to the newsletter on the home page. Register for an account at checkout.'));
  t.strictSame(signs.spellChecked('ws_r', 'Can I sign up at checkout?', { customerFacing: true }), 'Can I sign up at checkout?', 'a centre that says "sign"');
  signs.upsert(article('kb_4', 'Visiting', 'Ask at the front desk for a pass. Reception is closed on Sundays.'));
  t.strictSame(signs.spellChecked('ws_r', 'Is the front desk open?', { customerFacing: true }), 'Is the front desk open?', 'a centre that says "front desk"');
});
