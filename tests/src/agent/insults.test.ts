import t from 'tap';
import { withoutInsults } from '@support/agent';

t.test('insults and swearing are left out of the words a question is looked up by', async (t) => {
  t.strictSame(
    [
      'You useless bot, just answer me: how much is a bike, idiot?',
      'How the fucking hell do I reset this bloody hub?',
      'WTF, why was I charged twice?',
      'Why are you such clowns? My refund is late!',
    ].map(withoutInsults),
    ['how much is a bike?', 'How the hell do I reset this hub?', 'why was I charged twice?', 'Why are you such? My refund is late!'],
  );
});

t.test('what is not an insult, or a message of insults alone, is left as it is', async (t) => {
  for (const message of ['Is there an idiot-proof guide?', 'This app is useless. How do I cancel?', 'you useless bot', 'you idiots!!', 'How old must I be?'])
    t.strictSame(withoutInsults(message), message, message);
});
