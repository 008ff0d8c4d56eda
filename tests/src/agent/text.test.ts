import t from 'tap';
import { MAX_STEMMED_LENGTH, stem } from '@support/agent';

t.test('a token longer than any word is its own stem (the stemmer is slow on long tokens)', async (t) => {
  // "tatata…ings": the stem drops "ings"
  const word = (length: number) => `${'ta'.repeat(length)}`.slice(0, length - 4) + 'ings';
  t.strictSame(stem(word(MAX_STEMMED_LENGTH)), word(MAX_STEMMED_LENGTH).slice(0, -4), 'at the limit: stemmed');
  t.strictSame(stem(word(MAX_STEMMED_LENGTH + 1)), word(MAX_STEMMED_LENGTH + 1), 'past it: as it is');
  t.strictSame(stem('a'.repeat(10_000)).length, 10_000);
});
