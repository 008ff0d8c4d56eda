import type { ArticleForIndex, Passage } from './types';

/** A paragraph longer than this is cut at sentence boundaries into pieces of about this size. */
export const MAX_PASSAGE_CHARS = 800;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+/;

/** Heading text without markdown emphasis, code ticks or trailing colon. */
const cleanHeading = (raw: string): string =>
  raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .replace(/:$/, '')
    .trim();

interface Block {
  heading: string | null;
  text: string;
}

/**
 * Blocks of an article's markdown: headings set the current heading, blank lines
 * separate paragraphs (not inside fenced code). A paragraph that introduces
 * what follows (ends with `:`) is kept together with the next block, and
 * consecutive list items separated by blank lines form one block, so a passage
 * reads on its own.
 */
const blocksOf = (content: string): Block[] => {
  const blocks: Block[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  let inFence = false;

  const flush = () => {
    const text = lines.join('\n').trim();
    lines = [];
    if (text.length === 0) return;
    const prev = blocks[blocks.length - 1];
    if (
      prev !== undefined &&
      prev.heading === heading &&
      (/:\s*$/.test(prev.text) || (LIST_ITEM.test(text) && LIST_ITEM.test(prev.text.split('\n').pop() ?? '')))
    ) {
      prev.text = `${prev.text}\n${text}`;
    } else {
      blocks.push({ heading, text });
    }
  };

  for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      lines.push(line);
      continue;
    }
    if (inFence) {
      lines.push(line);
      continue;
    }
    const h = HEADING.exec(line);
    if (h !== null) {
      flush();
      const text = cleanHeading(h[2] ?? '');
      heading = text.length > 0 ? text : heading;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    lines.push(line);
  }
  flush();
  return blocks;
};

/** Sentences of a paragraph (ends at `.`, `!` or `?` followed by space, or a newline before a list item). */
const sentencesOf = (text: string): string[] => {
  const out: string[] = [];
  const re = /[^.!?\n]*(?:[.!?]+(?=\s|$)|\n|$)/g;
  let current = '';
  for (const m of text.matchAll(re)) {
    const piece = m[0];
    if (piece.length === 0) continue;
    current += piece;
    if (/[.!?]$/.test(piece) || piece.endsWith('\n')) {
      out.push(current);
      current = '';
    }
  }
  if (current.trim().length > 0) out.push(current);
  return out;
};

/** Cuts a long paragraph at sentence boundaries into pieces of at most ~MAX_PASSAGE_CHARS. */
export const cutLong = (text: string, max = MAX_PASSAGE_CHARS): string[] => {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentencesOf(text)) {
    if (current.length > 0 && current.length + sentence.length > max) {
      pieces.push(current.trim());
      current = '';
    }
    current += sentence;
  }
  if (current.trim().length > 0) pieces.push(current.trim());
  return pieces.filter((p) => p.length > 0);
};

/**
 * Splits an article into passages: one per paragraph (blank-line separated),
 * each carrying the markdown heading it sits under (`#`..`######`, the nearest
 * one) in `heading`, and the raw markdown of the paragraph in `text` (links and
 * images kept for the answer writer). Very long paragraphs are cut at sentence
 * boundaries. An article without any body text yields one passage holding its
 * title, so it can still be found.
 */
export const splitArticle = (article: ArticleForIndex): Passage[] => {
  const pieces: Block[] = [];
  for (const block of blocksOf(article.content)) {
    for (const text of cutLong(block.text)) pieces.push({ heading: block.heading, text });
  }
  if (pieces.length === 0) pieces.push({ heading: null, text: article.title });
  return pieces.map((p, n) => ({
    id: `${article.id}#${n}`,
    index: n,
    articleId: article.id,
    workspaceId: article.workspace_id,
    title: article.title,
    heading: p.heading,
    text: p.text,
    type: article.type,
    isPublic: article.is_public,
    customerFacing: article.type === 'public_article' && article.is_public,
  }));
};
