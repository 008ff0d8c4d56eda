import t from 'tap';
import { smallTalkOf, smallTalkReply, withoutContactDetails } from '@support/agent';

t.test('small talk: greetings, thanks, goodbyes and praise in several languages; a question is never small talk', async (t) => {
  const cases: [string, ReturnType<typeof smallTalkOf>][] = [
    ['hi there!', 'greeting'],
    ['Hi, sorry, one more thing', 'greeting'],
    ['hey, quick question', 'greeting'],
    ['hi, one more thing: how long do refunds take?', null],
    ['Hello 👋', 'greeting'],
    ['good morning', 'greeting'],
    ['Buenos días', 'greeting'],
    ['Bonjour', 'greeting'],
    ['thanks, that is all!', 'thanks'],
    ['Thank you so much', 'thanks'],
    ['ok thanks bye', 'goodbye'],
    ['thank you so much, bye!', 'goodbye'],
    ['Danke schön', 'thanks'],
    ['merci beaucoup', 'thanks'],
    ['ok bye', 'goodbye'],
    ['see you later', 'goodbye'],
    ["you're awesome", 'praise'],
    ["thanks so much, you've been super helpful", 'thanks'],
    ['just wanted to say thank you, all sorted now', 'thanks'],
    ["thanks, that makes sense. you've been great", 'thanks'],
    // Small talk in another form of its words (an outsider's trial)
    ['Thanks so much, that really helped!', 'thanks'],
    ['Thanks, that helped', 'thanks'],
    ['Bye, have a lovely day', 'goodbye'],
    ['Thanks, that helped. How do I cancel my order?', null],
    ['thanks, now how do I set up my card?', null],
    ['thanks, all sorted. when do you open?', null],
    ['hi, how do I reset my password?', null],
    ['thanks, but how much is the Plus plan?', null],
    // Regional thanks and farewells, and wishing the agent well (two outsiders' trials)
    ['thanks heaps', 'thanks'],
    ['ta mate', 'thanks'],
    ['Thanks so much, that sorted it out', 'thanks'],
    ['Have a lovely day!', 'goodbye'],
    ['Have a great weekend!', 'goodbye'],
    ['you guys are legends, have a good one', 'goodbye'],
    ['enjoy the rest of your day', 'goodbye'],
    ['take care', 'goodbye'],
    ['take the bus', null],
    ['take care of it', null],
    ['what about the rest of the week?', null],
    ['how are you', 'greeting'],
    ["How's your day going?", 'greeting'],
    ['how', null],
    ['how much?', null],
    ['ok', null],
    ['', null],
    ['hello hello hello hello hello hello hello hello hello hello hello', null],
  ];
  t.strictSame(
    cases.map(([message]) => [message, smallTalkOf(message)]),
    cases,
  );
  t.match(smallTalkReply('greeting', 'professional'), /^Hello, thank you/);
  t.match(smallTalkReply('thanks', 'casual'), /No problem/);
});

t.test('contact details are not question words', async (t) => {
  t.equal(
    withoutContactDetails('my email is carol.lead@example.net, call +1 (555) 010-9999 about order 12345').replace(/\s+/g, ' '),
    ' , call about order 12345',
  );
  t.equal(withoutContactDetails('Hi, you can reach me at +44 20 7946 0958. Is Weather Skip free?').replace(/\s+/g, ' '), 'Hi, . Is Weather Skip free?');
  t.equal(withoutContactDetails('My phone number is 555-010-9999 and my e-mail address is a@b.co').replace(/\s+/g, ' '), ' and ');
  t.equal(withoutContactDetails('my number is 12345, the order number'), 'my number is 12345, the order number', 'not a phone: kept with its words');
});
