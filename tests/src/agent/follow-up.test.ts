import t from 'tap';
import { followUpQuery } from '@support/agent';

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
