import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';

/** One term's BM25 scores: the documents it matches (by slot), each with its score for that term alone. */
interface TermScores {
  slots: Int32Array;
  scores: Float64Array;
}

/**
 * Terms kept per index; past it the cache starts again (a help centre's questions reuse a few
 * thousand words). A term keeps one entry per document it matches, so the cache never holds
 * more pairs than the index itself.
 */
const TERMS_KEPT = 4_000;

/**
 * A MiniSearch index's OR query taken term by term, each term's scores kept until the index
 * changes: exactly what `search(query, { combineWith: 'OR', … })` scores (each document's term
 * scores summed in the query's order, times the number of distinct query terms it matches),
 * without walking the index again for a term already asked about. Customers' questions share
 * most of their words, and MiniSearch's walk (a map per field per term, a result object per
 * match) was most of a search's time. Documents are numbered by the caller (`slotOf`), and
 * scores summed into an array by that number: no map in a query's path.
 */
export class TermScoreCache<T> {
  private readonly kept = new Map<string, TermScores>();

  constructor(
    private readonly index: MiniSearch<T>,
    /** The query's options but its terms' processing (the terms given are already processed). */
    private readonly options: SearchOptions,
    /** A document's number, from 0: stable until `clear`. */
    private readonly slotOf: (id: string) => number,
  ) {}

  /** Forgets every term: a document added or removed changes every idf and the average lengths (and the slots). */
  clear(): void {
    this.kept.clear();
  }

  /**
   * Each document's score for the analysed query terms (duplicates kept, as MiniSearch keeps
   * them) at its slot of `out`, 0 where it matches none; `out` holds a slot for every document.
   */
  scoresInto(terms: readonly string[], out: Float64Array): void {
    out.fill(0);
    const distinct = new Uint16Array(out.length);
    terms.forEach((term, i) => {
      const first = terms.indexOf(term) === i;
      const { slots, scores } = this.of(term);
      for (let k = 0; k < slots.length; k++) {
        out[slots[k]] += scores[k];
        if (first) distinct[slots[k]] += 1;
      }
    });
    for (let i = 0; i < out.length; i++) if (distinct[i] > 1) out[i] *= distinct[i];
  }

  private of(term: string): TermScores {
    let kept = this.kept.get(term);
    if (kept === undefined) {
      const results = this.index.search(term, { ...this.options, tokenize: (t) => [t], processTerm: (t) => t });
      kept = { slots: Int32Array.from(results, (r) => this.slotOf(r.id as string)), scores: Float64Array.from(results, (r) => r.score) };
      if (this.kept.size >= TERMS_KEPT) this.kept.clear();
      this.kept.set(term, kept);
    }
    return kept;
  }
}
