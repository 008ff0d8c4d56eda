import t from 'tap';
import { helpCentre, kbId } from '../support/agent';
import { serviceFixture } from '../support/fixture';
import { centre } from '../eval/eval-set';

// Follow-ups that do not look like one, through the API (with the embedding model, as `npm start` runs).

const e2e = serviceFixture({ tenant: { name: 'Follow-ups' } });

t.test('a short question that does not point back continues the subject before it when that subject speaks of it', async (t) => {
  // Given a broadband centre (an outsider's: "How do I reset my password?", then "how long does the link stay valid?"
  // was answered from the data-retention article)
  const article = (n: number, title: string, content: string) => ({ id: kbId(n), title, content });
  const ws = await helpCentre(
    e2e,
    'Broadband',
    [
      article(
        141,
        'Resetting your password',
        '1. On the sign-in page, choose Forgot password.\n2. Enter the e-mail address of your account.\n3. Open the email from us and tap the reset link. The link works for 1 hour.',
      ),
      article(
        142,
        'How we keep your data',
        '## How long we keep it\nWe keep billing records for 6 years after your account closes. Traffic data is deleted after 2 years.',
      ),
      article(143, 'Moving house', 'Tell us at least 4 weeks before your moving date. Moving is free.'),
    ],
    { response_length: 'concise' },
  );
  const first = await ws.api.post('/agent/messages', { message: 'How do I reset my password?' });
  t.strictSame(first.body.sources, ['Resetting your password']);
  // When the next question names the subject's thing without pointing back at it
  const next = await ws.api.post('/agent/messages', { conversation_id: first.body.conversation_id, message: 'how long does the link stay valid?' });
  // Then it is answered from the subject's article
  t.strictSame([next.body.sources, /1 hour/.test(next.body.messages.join(' '))], [['Resetting your password'], true]);
  // And a short question of another subject in the same conversation is answered from that subject
  const other = await ws.api.post('/agent/messages', { conversation_id: first.body.conversation_id, message: 'how much notice before I move?' });
  t.strictSame(other.body.sources, ['Moving house']);
});

t.test("a question's later part that leans on the part before is answered from that part's subject", async (t) => {
  // Given an outsider's broadband centre (tuning half), where "…is there something I can add and what would it cost"
  // got the €60 rescheduling fee of the installation article, not the booster's price
  const ws = await helpCentre(e2e, 'Brightwave', centre('brightwave').articles, {});
  // When one message asks what to add and then what "it" costs
  const reply = await ws.api.post('/agent/messages', {
    message: 'wifi doesnt reach the attic bedroom at all, is there something I can add and what would it cost',
  });
  // Then the price is the booster's, and only the booster's article is cited
  const text = reply.body.messages.join(' ');
  t.strictSame([/€5 per month/.test(text), /€60/.test(text), reply.body.sources], [true, false, ['Mesh Boosters for better Wi-Fi']]);
  // And a part that stands on its own is still answered from its own article
  const two = await ws.api.post('/agent/messages', { message: 'How much notice do you need when I move house? And how do I order a Mesh Booster?' });
  t.strictSame(two.body.sources, ['Moving house', 'Mesh Boosters for better Wi-Fi']);
});

t.test("a part whose answer sends the customer to another article is followed by that article's answer", async (t) => {
  // Given five articles of an outsider's vet centre (tuning half), where the prescriptions article sends pet food to the
  // shop's article ("– see Pharmacy, online shop and deliveries"): "…how much is the delivery" got the medication courier's fee
  const titles = [
    'Prescriptions and repeat medication',
    'Pharmacy, online shop and deliveries',
    'Grooming',
    'Desexing (spey and castration)',
    'Boarding at Pawsome Lodge (kennels and cattery)',
  ];
  const ws = await helpCentre(
    e2e,
    'Pawsome Vets',
    centre('pawsome').articles.filter((a) => titles.includes(a.title)),
    {},
  );
  // When a customer asks whether dog food is delivered, and what delivery costs
  const reply = await ws.api.post('/agent/messages', { message: 'do u deliver dog food to wellington? how much is the delivery' });
  // Then the shop's fee for the rest of the country follows the sentence that sends them there, and both articles are cited
  const text = reply.body.messages.join(' ');
  t.strictSame(
    [/see Pharmacy, online shop and deliveries/.test(text), /\$11\.95/.test(text), reply.body.sources],
    [true, true, ['Prescriptions and repeat medication', 'Pharmacy, online shop and deliveries']],
  );
});
