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
