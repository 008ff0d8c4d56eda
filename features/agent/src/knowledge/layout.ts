import { labelOnly } from './sentences';
import { tieRanks } from './top-rows';
import type { Passage } from './types';

/**
 * A workspace's passages in rows, article by article: the rows its BM25 scores
 * (KnowledgeIndex.lexicalRows) and its embeddings' matrix (embeddings.ts) share.
 */
export interface Layout {
  passages: readonly Passage[];
  /** Row -> the number of its article (articles numbered in the same order). */
  articleOf: Int32Array;
  /** Row -> its place in compareHits' order of ties (article id, then passage order): what topRows breaks ties by. */
  tieRank: Int32Array;
  /** Row -> 1 when its passage may reach a customer. */
  customerFacing: Uint8Array;
  /** Row -> 1 when its passage is only a link or an image (sentences.ts, `labelOnly`). */
  labelOnly: Uint8Array;
  row: Map<string, number>;
  articleNumber: Map<string, number>;
}

/** The rows of these articles' passages, in the map's order. */
export const layOut = (articles: ReadonlyMap<string, readonly Passage[]>): Layout => {
  const passages: Passage[] = [];
  const articleOf: number[] = [];
  const row = new Map<string, number>();
  const articleNumber = new Map<string, number>();
  for (const [articleId, ofArticle] of articles) {
    const n = articleNumber.size;
    articleNumber.set(articleId, n);
    for (const p of ofArticle) {
      row.set(p.id, passages.length);
      passages.push(p);
      articleOf.push(n);
    }
  }
  return {
    passages,
    articleOf: Int32Array.from(articleOf),
    tieRank: tieRanks(passages),
    customerFacing: Uint8Array.from(passages, (p) => (p.customerFacing ? 1 : 0)),
    labelOnly: Uint8Array.from(passages, (p) => (labelOnly(p) ? 1 : 0)),
    row,
    articleNumber,
  };
};

/** The rows of a workspace without articles. */
export const NO_ROWS: Layout = layOut(new Map());
