import { topRows } from './top-rows';
import type { Layout } from './layout';
import type { VectorMatrix } from './vector-matrix';

/**
 * Hybrid knowledge search: every passage in scope scored by meaning (cosine of the question's
 * and the passage's multilingual-e5-small embeddings, e5-model.ts) plus FUSION_BM25_WEIGHT ×
 * its BM25 score over the best BM25 score. Meaning finds paraphrases and other languages
 * (nothing is shared with BM25 across languages); the small BM25 share breaks near-ties
 * towards the passage that names the question's exact terms (a plan name, an error code).
 *
 * Chosen on the tuning half of tests/fixtures/eval only (nestwise, ledgerly; 78 questions with
 * an answering article, recall@1 / recall@5):
 *   BM25 alone                                  0.679 / 0.859
 *   all-MiniLM-L6-v2 re-rank of BM25's top 40   0.744 / 0.872 (the previous default)
 *   e5, BM25's top 40 re-ranked                 0.744 / 0.897
 *   e5 over every passage (dense)               0.821 / 0.987
 *   reciprocal rank fusion, k 10 / 60           0.782 / 0.987, 0.782 / 0.949
 *   dense + 0.02 × BM25 (default)               0.846 / 0.987; 0.05: 0.821, 0.1: 0.744
 * Checked again on the tuning half's twelve centres (2026-11-29; 419 questions searched, 489
 * turns), weight 0.01 / 0.02 / 0.035 / 0.05 / 0.08: recall@1 352 / 354 / 348 / 344 / 332, turns
 * citing the right article 444 / 446 / 444 / 443 / 444, stating its facts 419 / 425 / 426 / 425 /
 * 418. 0.02 stays. The held-out half's figures are printed by `npm run eval`.
 */
export const FUSION_BM25_WEIGHT = 0.02;
/**
 * Close in meaning: a passage this similar to the question may answer it. Search returns only
 * passages that share a word with the question or reach it (every passage has some similarity).
 * On the tuning half, every question with an answering article reaches it; off-topic ones do not.
 */
export const MIN_SIMILARITY = 0.81;

/** A workspace's indexed passages in rows (KnowledgeIndex.rows) with their embeddings as one matrix, row for row. */
export interface PassageMatrix {
  layout: Layout;
  matrix: VectorMatrix;
  /** Every passage's sentences (sentences.ts), passage after passage: row i's from sentenceStart[i] to before sentenceStart[i + 1]. */
  sentences: VectorMatrix;
  sentenceStart: Int32Array;
  /** By row, the last search's fused scores. */
  fused: Float64Array;
  bytes: number;
}

/** The part of a BM25 search that fusion needs: a score per row and the best of them. */
export interface LexicalScores {
  scores: Float64Array;
  best: number;
}

/**
 * The best `pool` rows, at most `cap` of one article, by similarity + FUSION_BM25_WEIGHT × BM25
 * / best BM25, among rows in scope that share a word with the question or reach MIN_SIMILARITY.
 * The similarities are read until the next call (VectorMatrix.scores reuses its array); each
 * kept row's fused score is in the matrix's `fused`.
 */
export const bestRows = (
  m: PassageMatrix,
  q: Float32Array,
  bm25: LexicalScores,
  customerOnly: boolean,
  cap: number,
  pool: number,
): { rows: number[]; similarities: Float32Array } => {
  const { fused } = m;
  const { articleOf, tieRank, customerFacing, labelOnly } = m.layout;
  const lexical = bm25.scores;
  // Locals, not the module's exports, in the loop (the compiled CommonJS reads exports.X each time).
  const best = bm25.best;
  const weight = FUSION_BM25_WEIGHT;
  const least = MIN_SIMILARITY;
  const similarities = m.matrix.scores(q);
  for (let i = 0; i < fused.length; i++) {
    const s = similarities[i];
    const lex = lexical[i];
    // A bare link or image reads close to any short question: it is found by its words only.
    const unfound = (customerOnly && customerFacing[i] === 0) || (lex === 0 && (s < least || labelOnly[i] === 1));
    fused[i] = unfound ? -Infinity : s + (best > 0 ? (weight * lex) / best : 0);
  }
  return { rows: topRows(fused, articleOf, tieRank, cap, pool), similarities };
};
