import t from 'tap';
import { asksTheBusiness, unknownSubject } from '@support/agent';

// The help centre's words, as the knowledge feed checks them (any case, whole words).
const KNOWN = new Set(['alexa', 'google', 'home', 'canada', 'plus', 'nestwise', 'hub']);
const mentioned = (word: string) => KNOWN.has(word.toLowerCase());

t.test('a yes-or-no question naming something no public article names is unknown', async (t) => {
  for (const message of [
    'Do you deliver to Australia?',
    'Does Nestwise work with Apple HomeKit and Siri?',
    'Hi, can I pay for Plus in Bitcoin?',
    'I have a question. Will the hub run on Zigbee Pro?',
    // A code of capitals and digits, in whichever question names it
    'Is NEST30 a valid code? what does it give me?',
    'Does SAVE-20 still work on Plus?',
  ])
    t.equal(unknownSubject(message, mentioned), true, message);
});

t.test('the rest is answered from the articles as usual', async (t) => {
  for (const [message, why] of [
    ['Does Nestwise work with Alexa and Google Home?', 'every name is in the articles'],
    ['Do you deliver to Canada?', 'a known place'],
    ['I live in Toronto. What does delivery cost?', 'an open question, whose answer (the rate for Canada) the articles may hold'],
    ['How long does delivery to Toronto take?', 'an open question naming the place itself'],
    ['Australia is where I live, do you ship there?', 'the first word of a sentence is not taken for a name'],
    ['Can the hub control my pool pump?', 'no name at all: the similarity rules judge it'],
    ['Can I get a refund NOW?', 'capitals are shouting, not a name'],
    ["Can I still buy it after I've already started driving?", '"I\'ve" is the customer, not a name'],
    ["Will it be there if I'd ordered it before I'll be away?", '"I\'d", "I\'ll" neither'],
    ['Can I still buy it after I’ve started driving?', 'nor with a typographic apostrophe'],
    ['¿Puedo pagar con Bitcoin?', 'only English questions are judged'],
    ['Kann ich mit Bitcoin zahlen?', 'German capitalises its nouns'],
    ['Does the X10 still work?', 'under four characters, a model or a size more often than a code'],
    ['Is my PIN 1234 ok?', 'digits alone are no code name'],
    ['Does the 5G hub work in Canada?', 'nor "5G"'],
  ])
    t.equal(unknownSubject(message, mentioned), false, `${message}: ${why}`);
});

t.test('a yes-or-no question put to the business, not a request to the assistant', async (t) => {
  const asked = [
    'Do you deliver to Australia?',
    'Hi, can I pay in Bitcoin?',
    'Does your app work on Android?',
    'Is there a store in Paris?',
    'Are you open on Sundays?',
  ];
  const not = [
    'Do you know who won the World Cup?',
    'Can you tell me a joke about Paris?',
    'Will it rain in Seattle tomorrow?',
    'What does delivery cost?',
    'Could you recommend a film?',
  ];
  t.strictSame([...asked, ...not].map(asksTheBusiness), [...asked.map(() => true), ...not.map(() => false)]);
});
