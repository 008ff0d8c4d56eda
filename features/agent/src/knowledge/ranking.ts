import type { SearchHit } from './types';

/** Indexed text: link and image labels kept, URLs dropped (they only add noise terms). */
export const searchableText = (markdown: string): string =>
  markdown
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/<https?:\/\/[^>\s]+>/gi, ' ')
    .replace(/https?:\/\/\S+/gi, ' ');

/** Best first; ties by article id, then passage order. */
export const compareHits = (a: SearchHit, b: SearchHit): number =>
  b.score - a.score ||
  (a.passage.articleId < b.passage.articleId ? -1 : a.passage.articleId > b.passage.articleId ? 1 : 0) ||
  a.passage.index - b.passage.index;

/** Inserts `hit` into `best` (ordered by compareHits) when it ranks among its first `size`. */
export const keepBest = (best: SearchHit[], hit: SearchHit, size: number): void => {
  if (best.length === size && compareHits(hit, best[size - 1]) >= 0) return;
  let i = best.length < size ? best.length : size - 1;
  for (; i > 0 && compareHits(hit, best[i - 1]) < 0; i--) best[i] = best[i - 1];
  best[i] = hit;
};
