import { plain, sentenceEnd, sentencesOf } from '../responders/markdown';
import { terms } from './text';
import type { Passage } from './types';

/** A piece of answer text: one sentence, or a lead-in sentence with the list items it introduces. */
export interface Unit {
  text: string;
  terms: Set<string>;
  index: number;
}

/**
 * What is derived from a passage (its terms, its sentences) depends on the passage alone: kept
 * per passage object, so a passage asked about again is not analysed again. The index keeps one
 * object per indexed passage; a replaced article's old objects are collected.
 */
const analyses = new WeakMap<Passage, { terms?: Set<string>; units?: Unit[] }>();
export const analysed = <K extends 'terms' | 'units'>(passage: Passage, key: K, make: () => NonNullable<{ terms?: Set<string>; units?: Unit[] }[K]>) => {
  let entry = analyses.get(passage);
  if (!entry) {
    entry = {};
    analyses.set(passage, entry);
  }
  return (entry[key] ??= make()) as NonNullable<{ terms?: Set<string>; units?: Unit[] }[K]>;
};

/** A passage's analysed terms: its title, heading and text (what its words are, whatever the question). */
export const passageTerms = (passage: Passage): Set<string> =>
  analysed(passage, 'terms', () => new Set(terms(`${passage.title}\n${passage.heading ?? ''}\n${passage.text}`)));

/** Markdown links and images, autolinks and bare URLs: a passage's labels, not its words. */
const LINKS = /!?\[[^\]\n]*\]\([^)\n]*\)|<https?:\/\/[^\s>]+>|https?:\/\/\S+/gi;

/**
 * A paragraph that is only a link or an image, with a word of lead-in at most ("See [the
 * sign-in help](…).", "![Wiring diagram](…)"): it says nothing of its own, and its few words
 * read close in meaning to almost any short question.
 */
export const labelOnly = (passage: Passage): boolean => {
  let bare = labels.get(passage);
  if (bare === undefined) labels.set(passage, (bare = terms(passage.text.replace(LINKS, ' ')).length <= 1));
  return bare;
};
/** Kept per passage object, as its terms are: a turn judges the same passages again. */
const labels = new WeakMap<Passage, boolean>();

/** Whether any of the passages holds the word (any case, as a whole word); they are listed only when a word is asked about. */
export const mentionedIn =
  (passages: () => readonly Passage[]) =>
  (word: string): boolean => {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
    return passages().some((p) => re.test(p.title) || re.test(p.heading ?? '') || re.test(p.text));
  };

/**
 * A passage's sentences; a heading that says something itself (`Plus: $4.99 per month`: a
 * number and at least three words) comes first, as a sentence. `Part 1` or `Step 2` says nothing.
 */
export const unitsOf = (passage: Passage): Unit[] =>
  analysed(passage, 'units', () => {
    const says = (heading: string) => /\d/.test(heading) && (heading.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) >= 3;
    const heading = passage.heading && says(passage.heading) ? [sentenceEnd(plain(passage.heading))] : [];
    return [...heading, ...sentencesOf(passage.text)].map((text, index): Unit => ({ text, index, terms: new Set(terms(text)) }));
  });

/**
 * A sentence as it is compared with a question: after its section's heading (else its
 * article's title), which says what it is about ("Connect a bank: Transactions are synced once
 * every 24 hours"). On the tuning half, the heading did better than the title, both, or neither.
 */
export const inContext = (passage: Passage, sentence: string): string => `${passage.heading ?? passage.title}: ${sentence}`;

/**
 * A passage's sentences as they are compared with a question (search's sentence match, an
 * answer's choice): embedded when the article is indexed, so no customer waits for them.
 */
export const answerTexts = (passage: Passage): string[] => unitsOf(passage).map((u) => inContext(passage, u.text));
