import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, Question } from '@support/agent';
import { hit } from '../support/hits';

// A small knowledge base, as the index would return it for "How do I reset my password?".
const PW_MAIN = hit(
  'art_pw',
  0,
  'Resetting your password',
  'Forgot your password',
  [
    'If you forgot your password, click **Forgot password** on the [sign-in page](https://app.example.com/login). We send a password reset link to your e-mail address. The reset link is valid for 24 hours.',
    '',
    '![The sign-in page](https://cdn.example.com/signin.png)',
    '',
    'Still stuck? Our team answers within a day.',
  ].join('\n'),
  9.5,
);
const PW_2FA = hit(
  'art_pw',
  1,
  'Resetting your password',
  'Two-step verification',
  [
    'After a password reset, two-step verification stays on. You can turn it off in [Security settings](https://app.example.com/settings/security).',
    'More: https://help.example.com/2fa',
    'https://cdn.example.com/2fa.webp',
  ].join('\n'),
  7.2,
);
const EMAIL = hit(
  'art_email',
  0,
  'Changing your e-mail address',
  null,
  'You can change your e-mail address under Profile. A password reset is needed to confirm the change, see [Profile](https://app.example.com/profile).',
  5.0,
);
const CHECKLIST = hit('art_sec', 0, 'Account security checklist', null, 'Pick a long password. ![Checklist](https://cdn.example.com/checklist.gif)', 2.5);
const SHIPPING = hit(
  'art_ship',
  0,
  'Shipping times',
  null,
  'Orders ship within 2 business days. Rates: [shipping rates](https://shop.example.com/shipping).',
  1.9,
);

const HITS = [PW_MAIN, PW_2FA, EMAIL, CHECKLIST, SHIPPING];

const settings = (over: Partial<AnswerSettings> = {}): AnswerSettings => ({
  name: 'Aria',
  tone: 'friendly',
  response_length: 'balanced',
  custom_instructions: null,
  model_tier: 'essential',
  ...over,
});
const question = (over: Partial<Question> = {}, set: Partial<AnswerSettings> = {}): Question => ({
  settings: settings(set),
  message: 'How do I reset my password?',
  history: [],
  hits: HITS,
  ...over,
});

const responder = new GroundedResponder();
const ask = (q: Question): Promise<Answer> => responder.answer(q);

const UNKNOWN_FRIENDLY = "Hi there! I'm sorry, I couldn't find anything about that in our help articles. Could you try asking in a different way?";
const NOT_GROUNDED = (message: string): Answer => ({ messages: [message], quick_replies: [], buttons: [], images: [], sources: [], grounded: false });

t.test('a balanced friendly answer, composed from the matching sentences of the best passage', async (t) => {
  // Given the password question and its hits
  // When the grounded responder answers with the default-ish settings
  const answer = await ask(question());
  // Then two bubbles of whole, plain sentences, one per passage, greeting first and closing last
  t.strictSame(answer, {
    messages: [
      'Hi there! If you forgot your password, click Forgot password on the sign-in page. We send a password reset link to your e-mail address. The reset link is valid for 24 hours.',
      'After a password reset, two-step verification stays on. You can turn it off in Security settings. More: https://help.example.com/2fa. I hope that helps!',
    ],
    quick_replies: ['Tell me about "Changing your e-mail address"', 'Tell me about "Account security checklist"'],
    buttons: [
      { text: 'sign-in page', url: 'https://app.example.com/login' },
      { text: 'Security settings', url: 'https://app.example.com/settings/security' },
      { text: 'Open help.example.com/2fa', url: 'https://help.example.com/2fa' },
    ],
    images: ['https://cdn.example.com/signin.png', 'https://cdn.example.com/2fa.webp'],
    sources: ['Resetting your password'],
    grounded: true,
  });
  for (const m of answer.messages) {
    t.notMatch(m, /[#*[\]]|\]\(/, 'no markdown marks in the text');
    t.match(m, /[.!?]$/, 'ends a sentence');
  }
});

t.test('response_length shapes the number of bubbles', async (t) => {
  // Given the same question, when asked concise / balanced / detailed
  const concise = await ask(question({}, { response_length: 'concise' }));
  const balanced = await ask(question({}, { response_length: 'balanced' }));
  const detailed = await ask(question({}, { response_length: 'detailed' }));
  // Then 1, 2 and 4 bubbles
  t.equal(concise.messages.length, 1);
  t.equal(balanced.messages.length, 2);
  t.equal(detailed.messages.length, 4);
  t.equal(
    concise.messages[0],
    'Hi there! If you forgot your password, click Forgot password on the sign-in page. We send a password reset link to your e-mail address. The reset link is valid for 24 hours.',
    'concise: the best sentences, no closing',
  );
  t.strictSame(
    detailed.messages.slice(2),
    [
      'After a password reset, two-step verification stays on. You can turn it off in Security settings. More: https://help.example.com/2fa.',
      'A password reset is needed to confirm the change, see Profile. I hope that helps!',
    ],
    'detailed: the next relevant passages follow',
  );

  // And detailed is "up to" 4: with one short passage, fewer bubbles
  const short = await ask(
    question({ hits: [hit('a', 0, 'Resetting your password', null, 'Use the reset link we e-mail you.', 3)] }, { response_length: 'detailed' }),
  );
  t.strictSame(short.messages, ['Hi there! Use the reset link we e-mail you. I hope that helps!']);
});

t.test("only the conversation's first answer greets", async (t) => {
  // Given the agent has answered in this conversation before
  const history: Question['history'] = [
    { role: 'customer', content: 'Where do I sign in?' },
    { role: 'ai', content: 'Hi there! On the sign-in page.' },
  ];
  // When asked again
  const next = await ask(question({ history }, { response_length: 'concise' }));
  // Then the answer goes on without a second "Hi there!"
  t.strictSame(next.messages, [
    'If you forgot your password, click Forgot password on the sign-in page. We send a password reset link to your e-mail address. The reset link is valid for 24 hours.',
  ]);
  // And a customer's earlier messages alone do not count
  const first = await ask(question({ history: history.slice(0, 1) }, { response_length: 'concise' }));
  t.match(first.messages[0], /^Hi there! /);
  // And "I don't know" later in the conversation does not greet either
  const unknown = await ask(question({ history, message: 'Do you sell garden furniture?' }));
  t.strictSame(unknown.messages, [UNKNOWN_FRIENDLY.replace(/^Hi there! /, '')]);
});

t.test('tone chooses the greeting, the closing and the "I don\'t know" wording', async (t) => {
  const by = async (tone: AnswerSettings['tone']) => (await ask(question({}, { tone }))).messages;
  const friendly = await by('friendly');
  const professional = await by('professional');
  const casual = await by('casual');
  t.match(friendly[0], /^Hi there! /);
  t.match(professional[0], /^Thank you for your question\. /);
  t.match(casual[0], /^Hey! /);
  t.match(friendly[1], / I hope that helps!$/);
  t.match(professional[1], / Please let me know if there is anything else I can help you with\.$/);
  t.match(casual[1], / Anything else\?$/);
  // The knowledge content itself is the same whatever the tone.
  const body = (m: string[]) =>
    m
      .join(' ')
      .replace(/^(Hi there!|Thank you for your question\.|Hey!) /, '')
      .replace(/ (I hope that helps!|Please let me know.*|Anything else\?)$/, '');
  t.equal(body(professional), body(friendly));
  t.equal(body(casual), body(friendly));

  const off = { message: 'Do you sell garden furniture?' };
  t.strictSame((await ask(question(off, { tone: 'friendly' }))).messages, [UNKNOWN_FRIENDLY]);
  t.strictSame((await ask(question(off, { tone: 'professional' }))).messages, [
    'Thank you for your question. Unfortunately, I could not find information about this in our help center. Could you rephrase your question or add a few details?',
  ]);
  t.strictSame((await ask(question(off, { tone: 'casual' }))).messages, ["Hey! Hmm, I couldn't find anything on that in our docs. Mind asking another way?"]);
});

t.test('sources are the titles of the cited articles only, distinct and in order', async (t) => {
  // Concise cites only the best passage; detailed cites two passages of one article and another article.
  t.strictSame((await ask(question({}, { response_length: 'concise' }))).sources, ['Resetting your password']);
  t.strictSame((await ask(question({}, { response_length: 'detailed' }))).sources, ['Resetting your password', 'Changing your e-mail address']);
});

t.test('buttons and images come from the cited passages only', async (t) => {
  // Concise: only the first passage is cited — its link and image, none of the others'
  const concise = await ask(question({}, { response_length: 'concise' }));
  t.strictSame(concise.buttons, [{ text: 'sign-in page', url: 'https://app.example.com/login' }]);
  t.strictSame(concise.images, ['https://cdn.example.com/signin.png']);

  // Detailed: the links of all cited passages, in order; bare URLs get a label; a bare image URL is an image
  const detailed = await ask(question({}, { response_length: 'detailed' }));
  t.strictSame(detailed.buttons, [
    { text: 'sign-in page', url: 'https://app.example.com/login' },
    { text: 'Security settings', url: 'https://app.example.com/settings/security' },
    { text: 'Open help.example.com/2fa', url: 'https://help.example.com/2fa' },
    { text: 'Profile', url: 'https://app.example.com/profile' },
  ]);
  t.strictSame(detailed.images, ['https://cdn.example.com/signin.png', 'https://cdn.example.com/2fa.webp']);
  t.notOk(
    detailed.buttons.some((b) => b.url.includes('shop.example.com')),
    'not from the off-topic passage',
  );
  t.notOk(detailed.images.includes('https://cdn.example.com/checklist.gif'), 'not from an uncited passage');
});

t.test('quick replies: the next-best related articles that are not cited, as questions, at most 3', async (t) => {
  // Concise cites the password article only: the related e-mail and checklist articles are offered,
  // the off-topic shipping article is not.
  t.strictSame((await ask(question({}, { response_length: 'concise' }))).quick_replies, [
    'Tell me about "Changing your e-mail address"',
    'Tell me about "Account security checklist"',
  ]);
  // Detailed cites the e-mail article too: it is no longer offered.
  t.strictSame((await ask(question({}, { response_length: 'detailed' }))).quick_replies, ['Tell me about "Account security checklist"']);

  // Titles that are direct questions stay questions (not an indirect "How … are …"); at most three.
  const related = [
    hit('q1', 0, 'How do I change my password', null, 'Open Profile and choose a new password.', 4),
    hit('q2', 0, 'Can I reset my password by phone?', null, 'No, a password reset needs e-mail.', 4),
    hit('q3', 0, 'How passwords are stored', null, 'Each password is hashed.', 3.9),
    hit('q4', 0, 'Password managers', null, 'A password manager helps.', 3.8),
  ];
  const answer = await ask(question({ hits: [PW_MAIN, ...related] }, { response_length: 'concise' }));
  t.strictSame(answer.quick_replies, ['How do I change my password?', 'Can I reset my password by phone?', 'Tell me about "How passwords are stored"']);
});

t.test('nothing relevant: no invented answer, grounded false, no sources', async (t) => {
  // Given hits that share none of the question's words (the index always returns something)
  const off = await ask(question({ message: 'What is the weather in Paris tomorrow?' }));
  t.strictSame(off, NOT_GROUNDED(UNKNOWN_FRIENDLY));
  // Given no hits at all
  t.strictSame(await ask(question({ hits: [] })), NOT_GROUNDED(UNKNOWN_FRIENDLY));
  // Given a message with no content words
  t.strictSame(await ask(question({ message: 'Hi?' })), NOT_GROUNDED(UNKNOWN_FRIENDLY));
});

t.test('off-topic or weak hits below the threshold are not used', async (t) => {
  // Given an off-topic passage that scored best (it shares no question term)
  const offTopicFirst = [hit('art_ship', 0, 'Shipping times', null, 'Orders ship fast. Track at [tracking](https://shop.example.com/track).', 20), PW_MAIN];
  const a = await ask(question({ hits: offTopicFirst }, { response_length: 'detailed' }));
  // Then it is neither quoted nor cited nor linked, and the relevant passage answers
  t.strictSame(a.sources, ['Resetting your password']);
  t.notMatch(a.messages.join(' '), /Orders ship/);
  t.notOk(a.buttons.some((b) => b.url.includes('shop.example.com')));
  t.strictSame(a.quick_replies, [], 'an off-topic article is not even suggested');

  // Given a passage sharing the question's terms but scoring far below the best (under 40 %)
  const weak = [PW_MAIN, hit('art_email', 0, 'Changing your e-mail address', null, 'A password reset confirms the change.', 3.0)];
  const b = await ask(question({ hits: weak }, { response_length: 'detailed' }));
  t.strictSame(b.sources, ['Resetting your password'], 'the weak passage is not cited');
  t.notMatch(b.messages.join(' '), /confirms the change/);

  // Given a passage sharing under half of the question's terms, even as the only hit
  const partial = [hit('art_inv', 0, 'Invoices', null, 'Download each invoice as a PDF.', 8)];
  const c = await ask(question({ message: 'Can I pay my invoice with a gift card from the store?', hits: partial }));
  t.equal(c.grounded, false);
  t.strictSame(c.sources, []);
});

t.test('deterministic: the same question gives the same answer', async (t) => {
  for (const response_length of ['concise', 'balanced', 'detailed'] as const) {
    const first = await ask(question({}, { response_length }));
    const again = await ask(structuredClone(question({}, { response_length })));
    t.strictSame(again, first, response_length);
    t.strictSame(await new GroundedResponder().answer(question({}, { response_length })), first, `${response_length}, another instance`);
  }
});

t.test('custom instructions are ignored by the offline responder', async (t) => {
  const plain = await ask(question());
  const instructed = await ask(question({}, { custom_instructions: 'Always answer in French.' }));
  t.strictSame(instructed, plain);
});

t.test('answer text is readable: whole sentences, lists kept with their lead-in, table rows as sentences, no headings or code', async (t) => {
  // Given a passage written in markdown
  const passage = hit(
    'art_exp',
    0,
    'Exporting your sales',
    'Export',
    [
      '## Export',
      'To export your sales:',
      '',
      '1. Open **Reports**',
      '2. Choose a date range',
      '3. Click *Export CSV*',
      '',
      '```',
      'GET /v1/sales/export?format=csv',
      '```',
      '| Format | Size |',
      '|---|---|',
      '| CSV | small |',
      '> Exports of more than a year are e-mailed to you.',
    ].join('\n'),
    12,
  );
  // When asked in detail
  const answer = await ask(question({ message: 'How do I export my sales?', hits: [passage] }, { response_length: 'detailed', tone: 'casual' }));
  // Then the lead-in keeps its steps, as sentences, a table row reads as a sentence named by its header, and nothing else of the markup remains
  t.strictSame(
    answer.messages,
    [
      'Hey! To export your sales: Open Reports. Choose a date range. Click Export CSV. CSV: Size small. Exports of more than a year are e-mailed to you. Anything else?',
    ],
    "in the article's order: the steps, the table row, the note",
  );
  t.strictSame(answer.sources, ['Exporting your sales']);
});

t.test('a list item ending with the comma that ran it into the next ends with a full stop', async (t) => {
  // Given a list written as one sentence (an outsider's car-rental centre)
  const list = 'Roadside Plus covers:\n\n- keys locked in the car or lost keys,\n- flat tyres, including fitting the spare,\n- jump starts.';
  const passage = hit('art_road', 0, 'Roadside assistance', null, list, 12);
  const answer = await ask(question({ message: 'What does Roadside Plus cover?', hits: [passage] }, { response_length: 'concise', tone: 'professional' }));
  t.match(answer.messages[0], /Roadside Plus covers: keys locked in the car or lost keys\. flat tyres, including fitting the spare\. jump starts\./);
});

t.test('the cheapest is the lowest entry of a price table, though an article without one ranks first', async (t) => {
  // Given an article on changing tier ranked above the price table (an outsider's gym centre)
  const upgrading = hit(
    'art_up',
    0,
    'Upgrading or downgrading your membership',
    null,
    'Upgrading your membership tier (for example Essential to Plus) takes effect immediately and there is no fee.',
    12,
  );
  const prices = hit(
    'art_prices',
    0,
    'Membership options and weekly prices',
    null,
    '| Tier | Weekly price |\n|---|---|\n| Essential | $16.95 per week |\n| Off-Peak | $12.95 per week |\n| Plus | $21.95 per week |',
    11,
  );
  // When asked for the cheapest
  const answer = await ask(question({ message: 'Which membership tier is the cheapest?', hits: [upgrading, prices] }, { response_length: 'concise' }));
  // Then the table's lowest entry answers
  t.match(answer.messages[0], /Off-Peak: Weekly price \$12\.95 per week/);
  t.strictSame(answer.sources, ['Membership options and weekly prices']);
});

t.test("a table's cell that says its column's name is not named again", async (t) => {
  // Given a refund table whose cells say "refund" (an outsider's ferry centre: "Refund Full refund")
  const passage = hit(
    'art_refunds',
    0,
    'Cancellations and refunds',
    null,
    [
      '| When you cancel | Refund | Fee |',
      '|---|---|---|',
      '| More than 7 days before departure | Full refund | £0 |',
      '| Less than 24 hours before | No refund | £5 |',
    ].join('\n'),
    12,
  );
  const answer = await ask(question({ message: 'Do I get a refund if I cancel?', hits: [passage] }, { response_length: 'detailed', tone: 'casual' }));
  t.strictSame(answer.messages, ['Hey! More than 7 days before departure: Full refund; Fee £0. Less than 24 hours before: No refund; Fee £5. Anything else?']);
});

t.test("numbered steps keep the article's order, whichever of them matched best", async (t) => {
  // Given install steps where the question's words sit in steps 2 and 3
  const steps = hit(
    'art_install',
    0,
    'Installing the hub',
    null,
    [
      '1. Unbox the hub and its power adapter.',
      '2. Install the app and create an account.',
      '3. Scan the code on the hub in the app.',
      '4. Wait for the light to turn green.',
    ].join('\n'),
    10,
  );
  // When asked in detail
  const answer = await ask(
    question({ message: 'How do I install the app and scan the code?', hits: [steps] }, { response_length: 'detailed', tone: 'casual' }),
  );
  // Then the bubbles read the steps 1 to 4 in order
  const text = answer.messages.join(' ');
  const at = ['Unbox', 'Install the app', 'Scan the code', 'Wait for the light'].map((s) => text.indexOf(s));
  t.ok(
    at.every((i) => i >= 0),
    'every step is there',
  );
  t.strictSame(
    [...at].sort((a, b) => a - b),
    at,
    'in the order of the article',
  );
});
