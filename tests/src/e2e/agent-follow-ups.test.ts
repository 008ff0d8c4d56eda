import t from 'tap';
import { helpCentre, kbId } from '../support/agent';
import { serviceFixture } from '../support/fixture';

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
