import t from 'tap';
import { enableAgent, helpCentre, importArticles, kbId } from '../support/agent';
import { serviceFixture } from '../support/fixture';
import { tenant } from '../support/workspace';

// A price list's answers, as a customer reads them (with the embedding model, as `npm start` runs).

const e2e = serviceFixture({ tenant: { name: 'Prices' } });

t.test('a deal for a group is answered only where an article ties the group to a deal or a price', async (t) => {
  // Given a course that names its students only in its class size, and a deal for members (the fifteenth centre)
  const ws = await helpCentre(
    e2e,
    'Studio',
    [
      { id: kbId(101), title: 'Beginner course', content: '## Price\n\nThe course costs £245.\n\n## Class size\n\nThere are at most 8 students on a course.' },
      { id: kbId(102), title: 'Clay shop', content: 'We sell clay and tools. Members get 10% off clay.' },
    ],
    {},
  );
  const student = await ws.api.post('/agent/messages', { message: 'Is there a student discount on the beginner course?' });
  t.strictSame([student.status, student.body.sources], [200, []]);
  const member = await ws.api.post('/agent/messages', { message: 'Do members get a discount on clay?' });
  t.strictSame(member.body.sources, ['Clay shop']);
});

t.test('a change no article announces, or a deal for someone no article names, is not answered from the price list', async (t) => {
  // Given a help centre that states today's prices and one group's discount
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Plans', workspaceArgs: ['--credits', '100'] });
  const prices = {
    id: kbId(97),
    title: 'Plans and prices',
    content: 'Basic costs $5 per month and Pro $12 per month. Students get 20% off Pro with a valid student card.',
  };
  await importArticles(e2e.dir, ws, [prices]);
  await enableAgent(ws, {});
  const ask = async (message: string) => (await ws.api.post('/agent/messages', { message })).body.sources;
  // When the customer asks whether prices go up, or for a teachers' deal, then no price is quoted as the answer
  t.strictSame(await ask('Is Pro going to get more expensive soon?'), []);
  t.strictSame(await ask('Do you offer a discount for teachers?'), []);
  // And the students' discount and today's prices are answered
  t.strictSame(await ask('Do you offer a discount for students?'), ['Plans and prices']);
  t.strictSame(await ask('How much does Pro cost?'), ['Plans and prices']);
  // Once an article announces the change, the question is answered from it
  await importArticles(e2e.dir, ws, [
    { id: kbId(98), title: 'Price changes in 2027', content: 'From 1 March 2027, Pro costs $14 per month. Basic stays at $5.' },
  ]);
  t.strictSame(await ask('Is Pro going to get more expensive soon?'), ['Price changes in 2027']);
});

t.test('the cheapest (or the most expensive) of a price list is its entry with the lowest (or highest) price', async (t) => {
  // Given plans listed with their prices and what each covers (an outsider's storage centre: "the cheapest cover")
  const ws = await helpCentre(
    e2e,
    'Storage',
    [
      {
        id: kbId(103),
        title: 'Protection plans',
        content:
          'Every unit must be covered by a protection plan.\n\n## Plus: $24 per month\nCovers up to $5,000 of belongings.\n\n' +
          '## Basic: $12 per month\nCovers up to $2,000 of belongings.\n\n## Premium: $39 per month\nCovers up to $10,000 of belongings.',
      },
    ],
    { response_length: 'concise' },
  );
  const cheapest = await ws.api.post('/agent/messages', { message: "What's the cheapest protection plan?" });
  t.strictSame([cheapest.status, cheapest.body.sources], [200, ['Protection plans']]);
  t.match(cheapest.body.messages[0], /Basic: \$12 per month/);
  const dearest = await ws.api.post('/agent/messages', { message: 'And the most expensive protection plan, what is it?' });
  t.match(dearest.body.messages[0], /Premium: \$39 per month/);
  // Asked in other languages (the cheapest, Basic, is listed first by search anyway: the dearest proves the rule)
  const spanish = await ws.api.post('/agent/messages', { message: '¿Cuál es el plan de protección más barato?' });
  t.match(spanish.body.messages[0], /Basic: \$12 per month/);
  const spanishDearest = await ws.api.post('/agent/messages', { message: '¿Y cuál es el plan de protección más caro?' });
  t.match(spanishDearest.body.messages[0], /Premium: \$39 per month/);
  const german = await ws.api.post('/agent/messages', { message: 'Welcher Schutzplan ist der teuerste?' });
  t.match(german.body.messages[0], /Premium: \$39 per month/);
  // Told, not asked: the customer's own plan is no question for the price list
  const told = await ws.api.post('/agent/messages', { message: "I'm on the cheapest plan. How much does the Premium plan cover?" });
  t.match(told.body.messages[0], /Premium: \$39 per month\. Covers up to \$10,000/);
});

t.test('a price told of "they" answers how much extra, not the humidity beside it', async (t) => {
  // Given a storage company's sizes and its climate-controlled units (the tuning half's VaultNest)
  const ws = await helpCentre(
    e2e,
    'Storage',
    [
      {
        id: kbId(130),
        title: 'Unit sizes and monthly prices',
        content:
          'We rent four unit sizes.\n\n## Locker 3x4: $29 per month\nA locker holds about 12 moving boxes.\n\n## Small 5x5: $39 per month\nAbout the size of a walk-in closet.\n\n' +
          '## Medium 10x10: $119 per month\nFits a one-bedroom apartment.',
      },
      {
        id: kbId(131),
        title: 'Climate-controlled units',
        content:
          'Climate-controlled units are kept between 55°F and 80°F all year round, with humidity below 55%.\n\n' +
          'They cost $30 per month more than a standard unit of the same size.\n\nWe recommend climate control for wooden furniture and electronics.',
      },
    ],
    {},
  );
  // When asked the price of a size and what climate control adds
  const r = await ws.api.post('/agent/messages', { message: 'How much is a 5x5 unit, and how much extra is climate control?' });
  // Then both prices are told
  t.strictSame([r.status, /\$39/.test(r.body.messages.join(' ')), /\$30 per month more/.test(r.body.messages.join(' '))], [200, true, true]);
  // And the paragraph opening with "They" is shown after the sentence it leans on, in the same bubble
  const extra = await ws.api.post('/agent/messages', { message: 'What is the extra charge for a climate-controlled unit?' });
  const told = (extra.body.messages as string[]).find((m) => m.includes('$30 per month more'));
  t.match(told, /Climate-controlled units are kept between 55°F and 80°F all year round, with humidity below 55%\. They cost \$30 per month more/);
});
