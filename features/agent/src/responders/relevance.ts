import { MIN_SIMILARITY } from '../knowledge/embeddings';
import { looksEnglish, terms } from '../knowledge/text';
import { labelOnly, passageTerms } from '../knowledge/sentences';
import type { SearchHit } from '../knowledge/types';

/*
 * Relevance rule (scores are BM25-like and unnormalised, so no raw score is a threshold alone).
 * With Q = the distinct analysed terms of the customer's message (`terms`: stop words removed,
 * stemmed), a hit is RELEVANT when both hold:
 *   1. coverage: at least MIN_TERM_SHARE of Q occurs in the passage's title, heading or text;
 *   2. closeness: its score is at least MIN_RELATIVE_SCORE × the best hit's score (and above 0).
 * Rule 1 is the absolute gate: an off-topic question still has a "best" hit, but that hit shares
 * (almost) none of the question's words. Rule 2 keeps weaker passages out when a clearly better
 * one exists. A message with no terms at all ("hi?") has nothing relevant.
 * A hit is RELATED (may be offered as a quick reply, never quoted) when it shares at least one
 * term of Q and scores at least MIN_RELATED_SCORE × the best.
 * Chosen on the labelled fixture (tests/fixtures/knowledge, top 8 hits, balanced): 0.5 / 0.4
 * cite the labelled article for 85 of 110 on-topic questions and say "I don't know" to 7 of 11
 * off-topic ones; a share of 0.4 answers 2 more off-topic questions, 0.6 refuses 40 % of the
 * on-topic ones. The closeness factor matters little between 0.3 and 0.5.
 */
export const MIN_TERM_SHARE = 0.5;
/**
 * With the embedding model, hits carry their similarity to the question (embeddings.ts), and the
 * rule is on meaning instead: a hit is RELEVANT when its similarity is at least MIN_SIMILARITY
 * (embeddings.ts: all answerable questions of the tuning half of tests/fixtures/eval reach it,
 * off-topic ones stay below 0.808) and within SIMILARITY_MARGIN of the best hit's.
 * A passage that is only a link or an image (`labelOnly`) is judged on words alone: it must share
 * one with the question, and its similarity sets no bar for the others. Its few words read close
 * to any short question: a help centre's "See [the sign-in help](…)" answered "Is there a
 * student discount?" with the password article, and pushed the real passages out of the margin.
 */
export const SIMILARITY_MARGIN = 0.02;
/**
 * An English question that shares no word with a passage needs more: off-topic questions ("will
 * it rain tomorrow?") reach 0.81 with some passage by meaning alone, answerable ones that share
 * no word stay above 0.84 (tuning half). A question in another language shares no word with an
 * English help centre and is judged on meaning alone.
 */
export const MIN_SIMILARITY_NO_SHARED_WORD = 0.825;
export const MIN_RELATIVE_SCORE = 0.4;
export const MIN_RELATED_SCORE = 0.2;

interface Scored {
  hit: SearchHit;
  share: number;
  relevant: boolean;
  related: boolean;
}

/** Every hit with its share of the question's terms and whether it is relevant / related (rule above). */
export const judgeHits = (message: string, hits: readonly SearchHit[]): Scored[] => {
  const question = new Set(terms(message));
  const best = hits.reduce((max, h) => Math.max(max, h.score), 0);
  const sharing = hits.map((hit) => {
    const own = passageTerms(hit.passage);
    return [...question].filter((q) => own.has(q)).length;
  });
  const byMeaning = hits.map((hit, i) => hit.similarity !== undefined && (sharing[i] > 0 || !labelOnly(hit.passage)));
  const bestSimilarity = hits.reduce((max, h, i) => (byMeaning[i] ? Math.max(max, h.similarity!) : max), -1);
  const english = looksEnglish(message);
  return hits.map((hit, i) => {
    const shared = sharing[i];
    const share = question.size === 0 ? 0 : shared / question.size;
    const relative = best > 0 && hit.score > 0 ? hit.score / best : 0;
    // Hits of the hybrid search carry the embedding similarity, a better gate than shared
    // words: a paraphrase, or a question in another language, shares meaning, not terms.
    const relevant =
      hit.similarity === undefined
        ? share >= MIN_TERM_SHARE && relative >= MIN_RELATIVE_SCORE
        : byMeaning[i] &&
          hit.similarity >= MIN_SIMILARITY &&
          hit.similarity >= bestSimilarity - SIMILARITY_MARGIN &&
          (shared > 0 || !english || hit.similarity >= MIN_SIMILARITY_NO_SHARED_WORD);
    return { hit, share, relevant, related: shared > 0 && relative >= MIN_RELATED_SCORE };
  });
};

/** Relevant hits, best first: what any responder may ground an answer on. */
export const relevantHits = (message: string, hits: readonly SearchHit[]): SearchHit[] =>
  judgeHits(message, hits)
    .filter((s) => s.relevant)
    .map((s) => s.hit);
