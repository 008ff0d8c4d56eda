import t from 'tap';
import { judgeHits, MIN_SIMILARITY } from '@support/agent';
import { hit } from '../support/hits';

// The grounded responder's relevance rule when hits carry the embedding model's similarity.

t.test('with the embedding model, relevance is by meaning; an English question sharing no word needs more', async (t) => {
  const close = (similarity: number) => ({
    ...hit('kb_ship', 0, 'Shipping', null, 'Parcels to Canada arrive in 5 to 7 business days.', similarity),
    similarity,
  });
  const relevant = (message: string, similarity: number) => judgeHits(message, [close(similarity)])[0].relevant;
  t.strictSame(
    [
      relevant('how long does shipping to canada take', MIN_SIMILARITY), // shares words
      relevant('will it rain in seattle tomorrow', MIN_SIMILARITY), // English, no shared word: not enough
      relevant('will it rain in seattle tomorrow', 0.83), // close enough by meaning alone
      relevant('¿Cuántos días tarda mi pedido?', MIN_SIMILARITY), // another language: meaning alone
      relevant('how long does shipping to canada take', MIN_SIMILARITY - 0.01), // below the floor
    ],
    [true, false, true, true, false],
  );
  // Within 0.02 of the best hit only.
  const judged = judgeHits('how long does shipping to canada take', [
    close(0.9),
    { ...close(0.87), passage: { ...close(0.87).passage, id: 'kb_ship#1', index: 1 } },
  ]);
  t.strictSame(
    judged.map((j) => j.relevant),
    [true, false],
  );
});

t.test('a passage that is only a link or an image is judged on shared words, and sets no bar by meaning', async (t) => {
  const passage = (index: number, text: string, similarity: number) => ({
    ...hit('kb_pw', index, 'Resetting your password', null, text, similarity),
    similarity,
  });
  const steps = passage(0, 'Click Forgot password on the sign-in page and follow the link we e-mail you.', 0.85);
  const link = passage(1, 'See [the sign-in help](https://acme.example/help/signin).', 0.9);
  const image = passage(2, '![Sign-in page](https://acme.example/img/signin.png)', 0.9);
  // Given bare passages closer by meaning than the steps (short texts read close to any short question)
  const judged = (message: string) => judgeHits(message, [link, image, steps]).map((j) => j.relevant);
  // Then a question sharing none of their words is not answered from them, and the steps stay within the margin
  t.strictSame(judged('how can I get back into my account'), [false, false, true]);
  // And one naming their words is
  t.strictSame(judged('show me the sign-in page'), [true, true, false]);
  // A lead-in of two words is a sentence of its own
  t.strictSame(
    judgeHits('anything else', [passage(3, 'Watch the video: [setup](https://acme.example/v)', 0.9)]).map((j) => j.relevant),
    [true],
  );
});
