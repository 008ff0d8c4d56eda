/** A customer question and the article that answers it (null: off-topic, nothing in the knowledge base answers it). */
export interface LabelledQuestion {
  question: string;
  article_id: string | null;
}

export interface RetrievalQuality {
  /** Number of on-topic (non-null) questions the figures are computed on. */
  questions: number;
  /** Share of questions whose article is the first distinct article returned. */
  recall_at_1: number;
  /** Share of questions whose article is among the first 5 distinct articles returned. */
  recall_at_5: number;
  /** Mean reciprocal rank of the right article among distinct articles (0 when absent). */
  mrr: number;
}

/** Article ids in first-seen order, duplicates dropped. */
export const distinctIds = (ids: readonly string[]): string[] => [...new Set(ids)];

/**
 * Retrieval quality of a search function over labelled questions, computed on
 * the on-topic questions only. `search` returns article ids best first (one per
 * returned passage; repeats are collapsed). Independent of any index so it can
 * be run over HTTP too. Questions are asked one at a time, in order.
 */
export const retrievalQuality = async (
  questions: readonly LabelledQuestion[],
  search: (q: string) => Promise<{ articleIds: string[] }>,
): Promise<RetrievalQuality> => {
  let n = 0;
  let at1 = 0;
  let at5 = 0;
  let rr = 0;
  for (const q of questions) {
    if (q.article_id === null) continue;
    n += 1;
    const ranked = distinctIds((await search(q.question)).articleIds);
    const rank = ranked.indexOf(q.article_id);
    if (rank === 0) at1 += 1;
    if (rank >= 0 && rank < 5) at5 += 1;
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  return {
    questions: n,
    recall_at_1: n === 0 ? 0 : at1 / n,
    recall_at_5: n === 0 ? 0 : at5 / n,
    mrr: n === 0 ? 0 : rr / n,
  };
};
