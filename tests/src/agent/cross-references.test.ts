import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, KnowledgeIndex, Question, refersTo } from '@support/agent';
import { hit, indexedArticle } from '../support/hits';

/** A passage that sends its reader to another article by title ("see Returning your equipment"), and the answers that follow it. */

t.test('a reference names an article by its title after "see", in any case, emphasis and quotes aside', async (t) => {
  const title = 'Returning your equipment';
  const yes = [
    'Remember to send back your router (see Returning your equipment).',
    'Remember to send back your router; see *Returning your equipment*.',
    'See the "returning your equipment" article.',
    'For details, see our Returning your equipment.',
  ];
  const no = [
    'Returning your equipment is free.',
    'Remember to send back your router (see Returning your equipments).',
    'We oversee Returning your equipment.',
    'see Returning your',
  ];
  t.strictSame(
    [...yes, ...no].map((text) => refersTo(text, title)),
    [...yes.map(() => true), ...no.map(() => false)],
  );
});

t.test("a passage's references resolve to the customer-facing passages of the articles it names", async (t) => {
  // Given a cancelling article that refers to a public article, an internal one and itself
  const index = new KnowledgeIndex();
  index.upsert(indexedArticle('art_cancel', 'Cancelling', 'Your final bill arrives after 2 weeks. Send back your router (see Returning your equipment).'));
  index.upsert(indexedArticle('art_return', 'Returning your equipment', 'We post you a returns bag.\n\n## Not returned\nAn unreturned router costs €120.'));
  index.upsert(indexedArticle('art_play', 'Retention playbook', 'Offer RET-7741 first.', { type: 'internal_article', is_public: false }));
  index.upsert(indexedArticle('art_move', 'Moving house', 'Tell us 30 days ahead (see Retention playbook, or see Cancelling).'));
  const [cancel] = index.passagesOf('ws_r', 'art_cancel');
  const [move] = index.passagesOf('ws_r', 'art_move');
  // When the passages' references are looked up
  // Then the public article's passages come, in article order
  t.strictSame(
    index.referredTo('ws_r', cancel).map((p) => p.text),
    ['We post you a returns bag.', 'An unreturned router costs €120.'],
  );
  // And an internal article resolves to nothing; another public one does
  t.strictSame([...new Set(index.referredTo('ws_r', move).map((p) => p.title))], ['Cancelling']);
  // And a passage without "see" refers to nothing
  t.strictSame(index.referredTo('ws_r', index.passagesOf('ws_r', 'art_return')[0]), []);
});

const settings: AnswerSettings = { name: 'Aria', tone: 'friendly', response_length: 'balanced', custom_instructions: null, model_tier: 'essential' };
const responder = new GroundedResponder();
const ask = (q: Omit<Question, 'settings' | 'history'>): Promise<Answer> => responder.answer({ settings, history: [], ...q });

// A vet's prescriptions article sends pet food to the shop's article, whose delivery fees search did not find (an outsider's centre).
const POSTING = {
  ...hit('art_rx', 0, 'Prescriptions', 'Posting', 'Pet food is delivered through our online shop at other rates – see Pharmacy and deliveries.', 9),
  similarity: 0.9,
};
const COURIER = { ...hit('art_rx', 1, 'Prescriptions', 'Courier', 'We courier medication for a flat fee of $9.50.', 8), similarity: 0.88 };
const SHOP = hit('art_shop', 0, 'Pharmacy and deliveries', 'Delivery', 'Rest of New Zealand: delivery $11.95, free over $149.', 0).passage;
const SHOP_RETURNS = hit('art_shop', 1, 'Pharmacy and deliveries', 'Returns', 'Unopened food can be returned within 30 days.', 0).passage;
const referredTo = () => [SHOP, SHOP_RETURNS];
const passagesOf = (id: string) => [POSTING.passage, COURIER.passage].filter((p) => p.articleId === id);

t.test("a sentence that answers and sends the reader to another article is followed by that article's answer", async (t) => {
  // Given the referring sentence is the closest, and the shop's fee answers as closely as the courier fee
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('Pet food') ? 0.9 : s.includes('$') ? 0.88 : 0.8));
  // When asked whether dog food is delivered, and at what price
  const answer = await ask({ message: 'Do you deliver dog food? How much is delivery?', hits: [POSTING, COURIER], similarity, passagesOf, referredTo });
  // Then the referring sentence comes first, then the shop's fee, and both articles are cited
  t.strictSame(
    [answer.messages, answer.sources],
    [
      [
        'Hi there! Pet food is delivered through our online shop at other rates – see Pharmacy and deliveries.',
        'Rest of New Zealand: delivery $11.95, free over $149. I hope that helps!',
      ],
      ['Prescriptions', 'Pharmacy and deliveries'],
    ],
  );
  // And without references looked up, the best article's own fee fills the answer
  const alone = await ask({ message: 'Do you deliver dog food? How much is delivery?', hits: [POSTING, COURIER], similarity, passagesOf });
  t.strictSame(alone.sources, ['Prescriptions']);
});

t.test('an article referred to never answers instead of the best hit, nor after a referring sentence that does not answer', async (t) => {
  // Given the shop's fee is far closer than anything of the prescriptions article, and the referring sentence is not close
  const similarity = async (texts: readonly string[]) => texts.map((s) => (s.includes('$11.95') ? 0.99 : s.includes('$9.50') ? 0.8 : 0.7));
  // When asked, for a concise answer, what the medication courier costs
  const question = { message: 'How much is the courier for medication?', hits: [POSTING, COURIER], similarity, passagesOf, referredTo };
  const answer = await responder.answer({ settings: { ...settings, response_length: 'concise' }, history: [], ...question });
  // Then the prescriptions article's answer is the one bubble
  t.strictSame([answer.messages, answer.sources], [['Hi there! We courier medication for a flat fee of $9.50.'], ['Prescriptions']]);
});
