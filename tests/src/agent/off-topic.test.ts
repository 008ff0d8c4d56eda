import t from 'tap';
import {
  asksForSum,
  CHOSEN_OFF_TOPIC_REQUESTS,
  MIN_SIMILARITY,
  OFF_TOPIC_MARGIN,
  OFF_TOPIC_REQUESTS,
  offTopic,
  offTopicReply,
  SUM_REQUEST,
} from '@support/agent';
import { AGENT_DEFAULTS } from '@support/agent';
import { hit } from '../support/hits';

/** The off-topic rule: a message closer in meaning to a request no help centre answers than to any passage found. */
const PLANS = { ...hit('art_plans', 0, 'Plans', null, 'Plus is $4.99 a month.', 3), similarity: 0.83 };
const model = (requestSimilarity: number) => ({
  asked: [] as string[][],
  async closestInList(_message: string, texts: readonly string[]) {
    this.asked.push([...texts]);
    return requestSimilarity;
  },
});

t.test('a message closer to an off-topic request than to any passage is off-topic', async (t) => {
  // Given search found a passage at 0.83, and the message is 0.85 from "Tell me a joke."
  const semantic = model(0.85);
  // When judged
  // Then it is off-topic, judged against every request
  t.strictSame(await offTopic(semantic, 'Tell me a joke about programmers', [PLANS]), true);
  t.strictSame(semantic.asked, [[...OFF_TOPIC_REQUESTS]]);
});

t.test('a request must be nearer than the closest passage by a margin; a message in another language meets only the chosen requests, by none', async (t) => {
  // Given a passage at 0.83, and a request nearer to the message by less than the margin
  t.strictSame(await offTopic(model(0.83 + OFF_TOPIC_MARGIN / 2), 'Tell me a joke about programmers', [PLANS]), false);
  // A message in Spanish, as near to a request: compared with the chosen requests only, and declined
  const semantic = model(0.83 + OFF_TOPIC_MARGIN / 2);
  t.strictSame(await offTopic(semantic, '¿Me cuentas un chiste?', [PLANS]), true);
  t.strictSame(semantic.asked, [[...CHOSEN_OFF_TOPIC_REQUESTS]]);
  t.ok(CHOSEN_OFF_TOPIC_REQUESTS.length < OFF_TOPIC_REQUESTS.length);
});

t.test('a message with one number, and one only, is not compared with the request for a sum', async (t) => {
  // Given the sum request among the chosen ones
  t.strictSame(
    CHOSEN_OFF_TOPIC_REQUESTS.filter((r) => r === SUM_REQUEST),
    [SUM_REQUEST],
  );
  const askedOf = async (message: string) => {
    const semantic = model(0.5);
    await offTopic(semantic, message, [PLANS]);
    return semantic.asked[0].includes(SUM_REQUEST);
  };
  // When a message holds one number (an outsider's Spanish price question was declined as nearer the sum)
  // Then the sum request is left out, in English and in another language
  t.strictSame(
    await Promise.all(
      ['¿Cuánto cuesta enviar un paquete de unos 9 kilos?', 'How much is a 9 kg parcel?', 'Wie viel kostet ein Paket mit 2,5 kg?'].map(askedOf),
    ),
    [false, false, false],
  );
  // And a message with two numbers, or none (a sum written out in words), is still compared with it
  t.strictSame(await Promise.all(['¿Cuánto es 12 más 7?', 'what is seven times eight?', '¿Cuánto es doce más siete?'].map(askedOf)), [true, true, true]);
  // And the other requests stay
  const semantic = model(0.5);
  await offTopic(semantic, '¿Cuánto cuesta un paquete de 9 kilos?', [PLANS]);
  t.strictSame(semantic.asked, [CHOSEN_OFF_TOPIC_REQUESTS.filter((r) => r !== SUM_REQUEST)]);
});

t.test('a message closer to a passage is not', async (t) => {
  t.strictSame(await offTopic(model(0.82), 'How much is Plus?', [PLANS]), false);
  // And the closest passage counts, not the first
  t.strictSame(await offTopic(model(0.85), 'How much is Plus?', [PLANS, { ...PLANS, similarity: 0.9 }]), false);
});

t.test('a question using two words of its closest passage is about the product, however close to a request', async (t) => {
  // Given a passage on the front desk's hours, and a message closer to "are you a human or a bot?" than to it
  const DESK = { ...hit('art_hours', 0, 'Opening hours', 'Front desk', 'The front desk is staffed from 8:00 to 19:00.', 3), similarity: 0.84 };
  // Then it is answered from the articles, not declined
  t.strictSame(await offTopic(model(0.86), 'When is there actually a person at the front desk?', [DESK]), false);
  // And one shared word does not make it so, nor two in a request for a task
  t.strictSame(await offTopic(model(0.86), 'Can you tell me a joke about a desk?', [DESK]), true);
  t.strictSame(await offTopic(model(0.86), 'Tell me a joke about the front desk.', [DESK]), true);
});

t.test("a place's name is not a word of the product: a question on the weather there is still declined", async (t) => {
  // Given a delivery-fee passage naming a city and the weekend, and a message closer to a request than to it
  const FEES = {
    ...hit('art_shop', 0, 'Deliveries', 'Delivery', 'Auckland: delivery $7.95. We deliver on weekdays, not at the weekend.', 3),
    similarity: 0.84,
  };
  // When the question shares the city's name and one other word with it (an outsider's vet centre answered it with the fees)
  // Then it is off-topic
  t.strictSame(await offTopic(model(0.86), "what's the weather looking like in Auckland this weekend?", [FEES]), true);
  // And two words of the product beside the name keep a question about the product, whatever the request
  t.strictSame(await offTopic(model(0.86), 'Can you deliver to me in Auckland this weekend?', [FEES]), false);
  // And a name opening a sentence is a word like any other
  t.strictSame(await offTopic(model(0.86), 'Delivery at the weekend?', [FEES]), false);
});

t.test("a customer telling of their own case in two of its closest passage's words is about the product too", async (t) => {
  // Given the recipe-picking passage, and a statement closer to "what should I cook for dinner?" than to it
  const PICK = {
    ...hit('art_menu', 0, 'Choosing your weekly recipes', 'Pick your meals', 'Pick your meals for the week before the cut-off.', 3),
    similarity: 0.84,
  };
  // Then it is answered from the articles, in the first person singular or plural
  for (const message of ['I totally forgot to pick my dinners this week.', 'We forgot to pick our meals this week', 'My picks for this week are gone!'])
    t.strictSame(await offTopic(model(0.86), message, [PICK]), false, message);
  // And a request for a task in the same words is still declined, as is a statement sharing one word
  t.strictSame(await offTopic(model(0.86), 'Pick my dinners for this week.', [PICK]), true);
  t.strictSame(await offTopic(model(0.86), 'I want to cook a nice dinner this week.', [PICK]), true);
});

t.test('without hits, a message is off-topic unless it is put to the business', async (t) => {
  // Search found nothing: every passage is below MIN_SIMILARITY and shares no word with it
  t.strictSame(await offTopic(model(MIN_SIMILARITY + 0.01), 'Tell me a joke', []), true);
  // However far every request is too (an outsider's trial: handed to a person when escalation was on)
  t.strictSame(await offTopic(model(MIN_SIMILARITY - 0.01), 'Who won the 1998 World Cup?', []), true);
  // A question put to the business is one a person may answer: not declined
  t.strictSame(await offTopic(model(MIN_SIMILARITY - 0.01), 'Do you sell gift cards?', []), false);
  t.strictSame(await offTopic(model(MIN_SIMILARITY - 0.01), 'Is there a store in Paris?', []), false);
  // In another language, where only English questions are told apart, neither
  t.strictSame(await offTopic(model(MIN_SIMILARITY - 0.01), 'Kann ich mit Bitcoin bezahlen?', []), false);
});

t.test('without the model nothing is judged off-topic', async (t) => {
  t.strictSame(await offTopic(null, 'Tell me a joke', [PLANS]), false);
});

t.test('the decline says who answers and what it helps with, in the tone', async (t) => {
  t.strictSame(
    offTopicReply('friendly', 'Aria', 'Acme'),
    "I'm Aria, Acme's AI assistant, so I can only help with questions about Acme. What can I help you with?",
  );
  // The default name says nothing: the business's assistant it is
  t.strictSame(offTopicReply('casual', AGENT_DEFAULTS.name, 'Acme'), "I'm Acme's AI assistant: I can only help with Acme stuff. What do you need?");
  t.match(offTopicReply('professional', 'Aria', 'Acme'), /^I am Aria, Acme's AI assistant, and I can only help with questions about Acme\./);
  // A name ending in "s" takes the apostrophe alone
  t.match(offTopicReply('friendly', 'Sigrid', 'Fjordline Ferries'), /^I'm Sigrid, Fjordline Ferries' AI assistant, so/);
});

t.test('a message asking only for a sum is off-topic, with or without the model', async (t) => {
  for (const message of [
    "what's 7 times 8?",
    'What is 15% of 80?',
    'how much is 12.5 + 7',
    'calculate 12/4 + 3',
    'What’s 2+2?',
    'work out 9 x 6 =',
    "what's 15% of £20?",
    'how much is 20 euros times 3?',
    'What is NOK 150 + NOK 75?',
  ]) {
    t.strictSame([asksForSum(message), await offTopic(null, message, [PLANS]), await offTopic(model(0), message, [PLANS])], [true, true, true], message);
  }
  // Numbers in a question about the product are not a sum, nor a bare "24/7?" (opening hours)
  for (const message of [
    '24/7?',
    'What is the 2-year warranty?',
    "what's 3-5 days delivery?",
    'How much is Plus for 2 people?',
    'what is 15% of my bill for tips?',
    "what's £20 a month for Plus?",
    'How much is 2 x the £5 add-on for my family plan?',
  ]) {
    t.strictSame(asksForSum(message), false, message);
  }
});
