/**
 * The best `size` rows by score, at most `cap` of one article, best first, on row numbers in
 * typed arrays, so that a search makes an object only for the rows it keeps (777 rows: 19 µs
 * with a hit object per row and closures, a few without). Rows are article by article
 * (layout.ts); `articleOf[row]` changes where an article's rows begin. Ties go to the lower
 * `tieRank` (compareHits' order: article id, then passage order). A row scored NaN or -Infinity
 * is left out.
 */
export const topRows = (scores: Float64Array, articleOf: Int32Array, tieRank: Int32Array, cap: number, wanted: number): number[] => {
  // No more than there are rows (so any size, Infinity too, is an array's length).
  const size = Math.min(wanted, scores.length);
  const perArticle = Math.min(cap, size);
  if (!(size > 0 && perArticle > 0)) return [];
  const best = new Int32Array(size);
  let kept = 0;
  const ofArticle = new Int32Array(perArticle);
  let ofArticleKept = 0;
  const rows = scores.length;
  for (let row = 0; row <= rows; row++) {
    if (row === rows || (row > 0 && articleOf[row] !== articleOf[row - 1])) {
      for (let i = 0; i < ofArticleKept; i++) kept = insert(best, kept, size, ofArticle[i], scores, tieRank);
      ofArticleKept = 0;
      if (row === rows) break;
    }
    const score = scores[row];
    // NaN and -Infinity fail this test: left out.
    if (!(score > -Infinity)) continue;
    // Below the worst of a full list: neither kept nor able to push out a row of its article that would be.
    if (kept === size && !before(row, best[size - 1], scores, tieRank)) continue;
    ofArticleKept = insert(ofArticle, ofArticleKept, perArticle, row, scores, tieRank);
  }
  return Array.from(best.subarray(0, kept));
};

const before = (a: number, b: number, scores: Float64Array, tieRank: Int32Array): boolean =>
  scores[a] > scores[b] || (scores[a] === scores[b] && tieRank[a] < tieRank[b]);

/** Puts `row` in its place among the first `count` of `into` (at most `limit`); the new count. */
const insert = (into: Int32Array, count: number, limit: number, row: number, scores: Float64Array, tieRank: Int32Array): number => {
  if (count === limit && !before(row, into[limit - 1], scores, tieRank)) return count;
  let i = count < limit ? count : limit - 1;
  for (; i > 0 && before(row, into[i - 1], scores, tieRank); i--) into[i] = into[i - 1];
  into[i] = row;
  return count < limit ? count + 1 : count;
};

/** Each row's place in compareHits' order of ties: by article id, then the passage's index. */
export const tieRanks = (passages: readonly { articleId: string; index: number }[]): Int32Array => {
  const order = passages.map((_, row) => row);
  order.sort((a, b) => {
    const x = passages[a];
    const y = passages[b];
    return x.articleId < y.articleId ? -1 : x.articleId > y.articleId ? 1 : x.index - y.index;
  });
  const rank = new Int32Array(passages.length);
  order.forEach((row, i) => (rank[row] = i));
  return rank;
};
