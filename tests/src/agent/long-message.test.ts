import t from 'tap';
import { LONG_MESSAGE_CHARS, questionsOfLong } from '@support/agent';

t.test('a long message is looked up by its questions; a short one keeps what it tells', async (t) => {
  const background = 'We are a family of four planning a long trip with our camper. '.repeat(12);
  t.ok(background.length > LONG_MESSAGE_CHARS);
  t.strictSame(
    questionsOfLong(`${background}So my question is: how long can our motorhome be? And do dogs travel free?`),
    'So my question is: how long can our motorhome be? And do dogs travel free?',
  );
  t.strictSame(questionsOfLong(background), background, 'no question: all of it');
  t.strictSame(questionsOfLong("I'm on Plus. Can I add a user?"), "I'm on Plus. Can I add a user?", 'short');
});
