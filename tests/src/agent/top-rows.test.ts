import fc from 'fast-check';
import t from 'tap';
import { tieRanks, topRows } from '@support/agent';
import { checkProperty, expectSame, propertySeed } from '../support/property';

// A search keeps its best passages by row number (top-rows.ts): the best `size` by score, at
// most `cap` of one article, ties by article id and passage order, rows scored -Infinity or NaN
// left out. The reference below is that rule as written: every row in scope sorted, then taken
// in order while its article has room.

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

interface Row {
  articleId: string;
  index: number;
}

/** Row -> a number that changes where the next article's rows begin (what a layout's articleOf is). */
const articleStarts = (rows: readonly Row[]): Int32Array => {
  const of = new Int32Array(rows.length);
  for (let row = 1; row < rows.length; row++) of[row] = of[row - 1] + (rows[row].articleId !== rows[row - 1].articleId ? 1 : 0);
  return of;
};

const reference = (rows: Row[], scores: number[], cap: number, size: number): number[] => {
  const order = rows
    .map((_, row) => row)
    .filter((row) => scores[row] > -Infinity)
    .sort(
      (a, b) =>
        scores[b] - scores[a] || (rows[a].articleId < rows[b].articleId ? -1 : rows[a].articleId > rows[b].articleId ? 1 : 0) || rows[a].index - rows[b].index,
    );
  const taken = new Map<string, number>();
  const out: number[] = [];
  for (const row of order) {
    if (out.length === size) break;
    const n = taken.get(rows[row].articleId) ?? 0;
    if (n >= cap) continue;
    taken.set(rows[row].articleId, n + 1);
    out.push(row);
  }
  return out;
};

t.test('any scores (ties, -Infinity, NaN), any cap and size: the rows the rule keeps, best first', async () => {
  // Articles in any order of their ids, each with its passages in order; few distinct scores, so ties are common.
  const input = fc.record({
    articles: fc
      .uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { maxLength: 12 })
      .chain((ids) => fc.tuple(...ids.map((id) => fc.nat({ max: 5 }).map((n) => Array.from({ length: n + 1 }, (_, index) => ({ articleId: id, index })))))),
    cap: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(Infinity)),
    size: fc.oneof(fc.integer({ min: 1, max: 25 }), fc.constant(Infinity)),
    values: fc.array(fc.oneof(fc.constantFrom(0.5, 0.75, 1, -Infinity, NaN), fc.double({ min: -2, max: 2, noNaN: true })), { minLength: 80, maxLength: 80 }),
  });
  await checkProperty(
    seed,
    fc.property(input, ({ articles, cap, size, values }) => {
      const rows = articles.flat();
      const scores = rows.map((_, i) => values[i % values.length]);
      const got = topRows(Float64Array.from(scores), articleStarts(rows), tieRanks(rows), cap, size);
      expectSame(got, reference(rows, scores, cap, size), `cap ${cap}, size ${size}`);
    }),
    500,
  );
});

t.test('the tie order is article id, then passage order, whatever order the rows are in', async (t) => {
  const rows = [
    { articleId: 'b', index: 0 },
    { articleId: 'b', index: 1 },
    { articleId: 'a', index: 1 },
    { articleId: 'a', index: 0 },
  ];
  t.strictSame([...tieRanks(rows)], [2, 3, 1, 0]);
  t.strictSame([...articleStarts(rows)], [0, 0, 1, 1]);
  t.strictSame(topRows(Float64Array.from([1, 1, 1, 1]), articleStarts(rows), tieRanks(rows), 2, 3), [3, 2, 0]);
  t.strictSame(topRows(Float64Array.from([1, 1, 1, 1]), articleStarts(rows), tieRanks(rows), 1, 4), [3, 0]);
});
