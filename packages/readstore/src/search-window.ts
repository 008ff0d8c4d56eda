/**
 * A trigram this common (in this many rows of the search index, or more) makes a phrase
 * expensive: FTS5 walks its long list for every row the phrase's other trigrams point to.
 */
export const COMMON_TRIGRAM_ROWS = 1000;

/**
 * The part of a search text to look up in the trigram index, when its whole would be slow: the
 * longest run of the text's trigrams that are each in fewer than COMMON_TRIGRAM_ROWS rows, at
 * least two of them (one rare trigram alone can still point to hundreds of rows). The rows it
 * finds are then checked against the whole text. null: look up the whole text (every trigram
 * rare, no run of two, or a text that is not printable ASCII, whose case folding only the
 * index itself does as it does).
 *
 * On 100k customers whose e-mails share "growth" and "@example.com", a search for
 * "growth30000@" took 176 µs as one phrase and 61 µs as "30000@" (docs/performance.md).
 */
export const searchWindow = (text: string, rowsWith: (trigram: string) => number): string | null => {
  if (!/^[\x20-\x7e]{4,}$/.test(text)) return null;
  let best = { from: 0, count: 0 };
  let run = { from: 0, count: 0 };
  for (let i = 0; i + 3 <= text.length; i++) {
    if (rowsWith(text.slice(i, i + 3)) < COMMON_TRIGRAM_ROWS) {
      run = run.count === 0 ? { from: i, count: 1 } : { from: run.from, count: run.count + 1 };
      if (run.count > best.count) best = run;
    } else run = { from: 0, count: 0 };
  }
  const window = text.slice(best.from, best.from + best.count + 2);
  return best.count < 2 || window.length === text.length ? null : window;
};
