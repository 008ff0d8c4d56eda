/**
 * The English text analyzer shared by the knowledge index and the answer
 * writer: lowercase, tokenize, drop stop words, stem.
 *
 * - Stemming: `wink-porter2-stemmer` (Porter2 / Snowball English, CommonJS;
 *   the newer `stemmer` package is ESM-only and this repo compiles to CJS).
 * - Stop words: the English list of the `stopword` package, plus a few
 *   conversational fillers and contraction fragments (see EXTRA_STOP_WORDS)
 *   that customers type but that never carry the subject of a question.
 *
 * Neither package ships type declarations, hence the typed `require`s.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const porter2 = require('wink-porter2-stemmer') as (word: string) => string;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { eng: STOPWORD_ENG } = require('stopword') as { eng: string[] };

/**
 * Additions to the `stopword` English list: contraction fragments left by
 * splitting on apostrophes ("don't" -> "don", "t"), auxiliaries the list
 * lacks, and greetings/politeness that appear in questions, not in answers.
 */
const EXTRA_STOP_WORDS = [
  'does',
  'doesn',
  'don',
  'didn',
  'isn',
  'aren',
  'wasn',
  'won',
  'wouldn',
  'shouldn',
  'couldn',
  'haven',
  'hasn',
  'll',
  've',
  're',
  'just',
  'so',
  'will',
  'able',
  'its',
  'us',
  'am',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'please',
  'pls',
  'anyone',
  'someone',
  'help',
];

export const STOP_WORDS: ReadonlySet<string> = new Set([...STOPWORD_ENG, ...EXTRA_STOP_WORDS]);

const stemCache = new Map<string, string>();

/**
 * Past this length a token is no word, and is its own stem: the stemmer takes time worse than
 * quadratic in a token's length (a 10,000-letter "word" held the event loop 2.8 s).
 */
export const MAX_STEMMED_LENGTH = 50;

/** Porter2 stem of one lowercase token (memoised). */
export const stem = (token: string): string => {
  if (token.length > MAX_STEMMED_LENGTH) return token;
  let s = stemCache.get(token);
  if (s === undefined) {
    s = porter2(token);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(token, s);
  }
  return s;
};

/** Lowercased, diacritics-free word tokens (letters/digits), before stop words and stemming. */
export const tokenize = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);

/**
 * Normalises one token as the index does: returns the stem, or null when the
 * token is a stop word or a lone letter.
 */
export const term = (token: string): string | null => {
  const t = token.toLowerCase();
  if (t.length === 0 || STOP_WORDS.has(t)) return null;
  if (t.length === 1 && !/\p{N}/u.test(t)) return null;
  return stem(t);
};

/** Analyzed terms of a text, in order, duplicates kept: the same analyzer the knowledge index uses. */
export const terms = (text: string): string[] => {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const t = term(token);
    if (t !== null) out.push(t);
  }
  return out;
};

/**
 * Whether a message reads as English: at least two of its words, and a quarter of them, are
 * English stop words ("what", "the", "do"). Other languages share few of them.
 */
export const looksEnglish = (message: string): boolean => {
  const words = tokenize(message);
  const common = words.filter((w) => STOP_WORDS.has(w)).length;
  return common >= 2 && common >= words.length / 4;
};
