import type { Layout } from './layout';
import type { Passage } from './types';

/**
 * The customer-facing articles a passage sends its reader to by title, as help centres write it:
 * "(see Returning your equipment)", "see *Lost or damaged parcels: making a claim*", "– see
 * Pharmacy, online shop and deliveries". The passages of those articles, in article order; none
 * of the passage's own article, nor of an article a customer may not read (a reference to an
 * internal playbook resolves to nothing).
 */
export const referredTo = (layout: Layout, passage: Passage): Passage[] => {
  if (!SEE.test(passage.text)) return [];
  const ids = [...titlesOf(layout)].filter(([id, title]) => id !== passage.articleId && refersTo(passage.text, title)).map(([id]) => id);
  return ids.length === 0 ? [] : layout.passages.filter((p, row) => layout.customerFacing[row] === 1 && ids.includes(p.articleId));
};

/** Whether a text sends its reader to the article of this title: "see [the|our] Title", in any case, emphasis and quotes aside. */
export const refersTo = (text: string, title: string): boolean => {
  const plain = text.replace(EMPHASIS, '').toLowerCase();
  const named = title.replace(EMPHASIS, '').toLowerCase();
  return ['see ', 'see the ', 'see our '].some((see) => {
    const at = plain.indexOf(see + named);
    const end = at + see.length + named.length;
    return at >= 0 && !WORD.test(plain[at - 1] ?? '') && !WORD.test(plain[end] ?? '');
  });
};

/** Markdown emphasis and quotes around a title. */
const EMPHASIS = /[*_"“”]/g;
const SEE = /\bsee\b/i;
const WORD = /[\p{L}\p{N}]/u;

/** Each customer-facing article's title by its id, worked out once per layout. */
const titlesOf = (layout: Layout): Map<string, string> => {
  let titles = byLayout.get(layout);
  if (titles === undefined) {
    titles = new Map();
    for (const [row, p] of layout.passages.entries()) if (layout.customerFacing[row] === 1 && !titles.has(p.articleId)) titles.set(p.articleId, p.title);
    byLayout.set(layout, titles);
  }
  return titles;
};
const byLayout = new WeakMap<Layout, Map<string, string>>();
