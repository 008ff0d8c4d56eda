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
