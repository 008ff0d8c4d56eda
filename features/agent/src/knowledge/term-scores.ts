import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';

/** One term's BM25 scores: the documents it matches, each with its score for that term alone. */
interface TermScores {
  ids: string[];
  scores: number[];
}

/** Terms kept per index; past it the cache starts again (a help centre's questions reuse a few thousand words). */
const TERMS_KEPT = 4_000;

/**
 * A MiniSearch index's OR query taken term by term, each term's scores kept until the index
 * changes: exactly what `search(query, { combineWith: 'OR', … })` scores (each document's term
 * scores summed in the query's order, times the number of distinct query terms it matches),
 * without walking the index again for a term already asked about. Customers' questions share
 * most of their words, and MiniSearch's walk (a map per field per term, a result object per
 * match) was most of a search's time.
 */
export class TermScoreCache<T> {
  private readonly kept = new Map<string, TermScores>();

  constructor(
    private readonly index: MiniSearch<T>,
    /** The query's options but its terms' processing (the terms given are already processed). */
    private readonly options: SearchOptions,
  ) {}

  /** Forgets every term: a document added or removed changes every idf and the average lengths. */
  clear(): void {
    this.kept.clear();
  }

  /** Each matching document's score for the analysed query terms (duplicates kept, as MiniSearch keeps them), by id. */
  scores(terms: readonly string[]): Map<string, number> {
    const sum = new Map<string, number>();
    const distinct = new Map<string, number>();
    terms.forEach((term, i) => {
      const first = terms.indexOf(term) === i;
      const { ids, scores } = this.of(term);
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k];
        const s = sum.get(id);
        sum.set(id, s === undefined ? scores[k] : s + scores[k]);
        if (first) distinct.set(id, (distinct.get(id) ?? 0) + 1);
      }
    });
    for (const [id, s] of sum) sum.set(id, s * distinct.get(id)!);
    return sum;
  }

  private of(term: string): TermScores {
    let kept = this.kept.get(term);
    if (kept === undefined) {
      const results = this.index.search(term, { ...this.options, tokenize: (t) => [t], processTerm: (t) => t });
      kept = { ids: results.map((r) => r.id as string), scores: results.map((r) => r.score) };
      if (this.kept.size >= TERMS_KEPT) this.kept.clear();
      this.kept.set(term, kept);
    }
    return kept;
  }
}
