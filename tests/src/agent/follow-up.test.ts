import t from 'tap';
import { asksOfItsOwn, continuesSubject, followUpQuery, mayAskOfItsOwn, mayContinue } from '@support/agent';
import { hit } from '../support/hits';

// Which of the customer's earlier messages a message is searched with (rules/follow-up.ts).

t.test('a message that stands alone is searched alone', async (t) => {
  t.strictSame(
    followUpQuery('Which payment methods do you accept for monthly subscriptions?', ['Do gift cards expire?']),
    'Which payment methods do you accept for monthly subscriptions?',
  );
});

t.test('a follow-up is searched with the message before it; a follow-up of one with the one before that', async (t) => {
  t.strictSame(followUpQuery('and in London?', ['Where can I rent a bike?']), 'Where can I rent a bike?\nand in London?');
  const earlier = ['Do gift cards expire?', 'I am moving house next month.', 'will they start again on their own?'];
  t.strictSame(
    followUpQuery('and will I get a heads-up first?', earlier),
    'I am moving house next month.\nwill they start again on their own?\nand will I get a heads-up first?',
  );
});

t.test('at most two earlier messages, however far the conversation leans back', async (t) => {
  t.strictSame(followUpQuery('and then?', ['first?', 'and so?', 'and it?']), 'and so?\nand it?\nand then?');
});

t.test('a follow-up in form only asks of its own subject when the two together found none of its words', async (t) => {
  const locker = hit('art_sizes', 0, 'Unit sizes and prices', null, 'A locker costs $19 a month. A 5x5 unit costs $39 a month.', 3);
  const hours = hit('art_access', 0, 'Access hours', null, 'The gate opens at 6:00 am and closes at 10:00 pm. Gate hours are the same every day.', 3);
  // Given "How much is a locker?", then "What about the gate hours?": read together, the locker's price came first
  t.strictSame(mayAskOfItsOwn('What about the gate hours?'), true);
  t.strictSame(asksOfItsOwn('What about the gate hours?', [locker], [hours]), true);
  // A follow-up whose words the subject's passage holds stays one ("and what about bigger units?")
  t.strictSame(asksOfItsOwn('and what about the bigger units?', [locker], [locker]), false);
  // As does one whose own lookup found none of its words either (found by meaning alone)
  t.strictSame(asksOfItsOwn('what about the weekend gates?', [locker], [hit('art_x', 0, 'Parking', null, 'Cars park for free.', 1)]), false);
  // As does one asking for a time its subject's passage states in other words ("how quickly do you reply?" after the e-mail address)
  const email = hit('art_contact', 0, 'Contacting us', 'Email', 'Email hello@vets.example. We answer emails within 2 working days.', 3);
  const complaints = hit('art_contact', 1, 'Contacting us', 'Complaints', 'Send complaints to the manager. We reply within 10 working days.', 3);
  t.strictSame(asksOfItsOwn('and how quickly do you usually reply?', [email], [complaints]), false);
  t.strictSame(asksOfItsOwn('and what does a consultation cost?', [email], [hit('art_p', 0, 'Prices', null, 'A consultation costs £52.', 3)]), true);
  // A message pointing back, or of one word of its own, is read with the one before, without a second lookup
  t.strictSame([mayAskOfItsOwn('and how long does that take?'), mayAskOfItsOwn('and in London?')], [false, false]);
  // As is one naming a circumstance of the question before it (an outsider's ferry centre: "and on the shorter crossings?",
  // after a motorbike's price on one route, was answered with the delay compensation for shorter crossings)
  t.strictSame(
    ['and on the shorter crossings?', 'what about in the winter months?', 'And for the children under twelve?', 'What about the gate hours?'].map(
      mayAskOfItsOwn,
    ),
    [false, false, false, true],
  );
  // As is one supposing the customer's circumstance otherwise (an outsider's carrier: "and what if I'm in Ireland instead?",
  // after moving a number from a UK network, was answered from roaming in Ireland); another thing done instead may not be
  t.strictSame(["and what if I'm in Ireland instead?", 'what if we live abroad?', "and if I'd rather swap the date instead?"].map(mayAskOfItsOwn), [
    false,
    false,
    true,
  ]);
  // He, she, his, her, their point back at a person named before (an outsider's trial: "Can I add my brother…?", then
  // "how long until his code works?" was answered from the gate codes' article alone)
  for (const message of ['how long until his code works?', 'can she use my card?', 'does he need an ID?', 'what if their code fails?'])
    t.strictSame(
      [mayAskOfItsOwn(message), followUpQuery(message, ['Can I add my brother to my unit?'])],
      [false, `Can I add my brother to my unit?\n${message}`],
      message,
    );
});

t.test('a short question that does not point back continues the subject before it where that subject holds as many of its words', async (t) => {
  // Given "How do I reset my password?" (an outsider's broadband centre)
  const reset = hit('art_pw', 0, 'Resetting your password', null, 'Open the email from us and tap the reset link. The link works for 1 hour.', 3);
  const kept = hit('art_data', 1, 'How we keep your data', 'How long we keep it', 'We keep billing records for 6 years.', 3);
  const change = hit('art_email', 0, 'Changing your email', null, 'To change your email, open Account and choose Email.', 3);
  // Then "how long does the link stay valid?" is read with it: found alone, the data's "how long" holds no more of its words
  t.strictSame([mayContinue('how long does the link stay valid?'), continuesSubject('how long does the link stay valid?', [kept], [reset])], [true, true]);
  // And a question of another subject, whose own passage holds more of its words, stays alone
  t.strictSame(continuesSubject('how do I change my email?', [change], [reset]), false);
  // As does one found in the same article either way, or one the subject's passage holds none of
  t.strictSame(
    [continuesSubject('how long does the link stay valid?', [reset], [reset]), continuesSubject('what are your prices?', [kept], [reset])],
    [false, false],
  );
  // A message that leans back is read with the one before already; a long one stands alone
  t.strictSame(
    [mayContinue('and how long does that take?'), mayContinue('how long does the reset link I got from you stay valid on my phone and laptop?')],
    [false, false],
  );
});
