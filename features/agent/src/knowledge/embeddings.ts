import { KnowledgeIndex } from './knowledge-index';
import { compareHits, searchableText } from './ranking';
import { bestRows, type PassageMatrix } from './hybrid-scores';
import { answerTexts } from './sentences';
import { defaultModelDir, E5Model, type EmbeddingModel } from './e5-model';
import type { Passage, SearchHit, SearchScope } from './types';
import { VectorFile } from './vector-file';
import { dot, VectorMatrix } from './vector-matrix';
import { join } from 'node:path';

export { FUSION_BM25_WEIGHT, MIN_SIMILARITY } from './hybrid-scores';

/**
 * How much a passage's closest sentence (after its heading, sentences.ts) adds to its score: a
 * question after one fact ("how often are transactions synced?") is closest to the sentence that
 * holds it, which the whole passage's embedding dilutes. Only the best SENTENCE_POOL passages
 * are re-scored (their sentences were embedded when the article was indexed). Tuning half,
 * recall@1: 0.859 without; 0.859 at 0.25, 0.897 at 0.35, 0.885 at 0.5, 0.872 at 1, 0.833 at 2
 * (pool 10 to 40: the same).
 */
export const SENTENCE_WEIGHT = 0.35;
export const SENTENCE_POOL = 20;

/** The text a passage is embedded as: title, heading and body, without URLs. */
export const passageForEmbedding = (p: Passage): string =>
  `${p.title}. ${p.heading !== null && p.heading !== '' ? `${p.heading}. ` : ''}${searchableText(p.text)}`.replace(/\s+/g, ' ').trim();

/** Embeddings kept in memory, by kind and text: a workspace's passages are embedded once. */
const CACHE_SIZE = 100_000;
/**
 * Memory for the workspaces' passage matrices (vector-matrix.ts), least recently searched
 * dropped first: 256 MB holds about 28,000 passages with their sentences (on average six
 * vectors of 384 floats a passage).
 */
const MATRIX_BYTES = 256 * 1024 * 1024;

/**
 * The embedding model with a cache, and the searches that use it. `load` gives null, after
 * logging why, when the model is not there or does not run: search is then BM25 alone.
 */
export class SemanticSearch {
  private readonly cache = new Map<string, Float32Array>();
  /** Each indexed passage's embedding, kept with the passage object (the index holds one per passage; a replaced article's go with it). */
  private readonly vectors = new WeakMap<Passage, Float32Array>();
  /** Its sentences' embeddings, the same way. */
  private readonly sentenceVectors = new WeakMap<Passage, Float32Array[]>();
  /** By workspace id, least recently searched first. */
  private readonly matrices = new Map<string, PassageMatrix>();
  private matrixBytes = 0;
  /** By list (closestInList), its texts' embeddings as one matrix. */
  private readonly lists = new WeakMap<readonly string[], VectorMatrix>();

  constructor(
    readonly model: EmbeddingModel,
    /** Passage and sentence vectors kept across restarts (help-centre text only; customers' questions stay in memory). */
    private saved: VectorFile | null = null,
  ) {}

  /**
   * Starts the model; null, after logging why, when it cannot run. `vectorDir`: where the
   * vectors of help-centre text are kept across restarts (none when unset or not writable).
   */
  static async load(
    modelDir: string = defaultModelDir(),
    log: (message: string, level?: 'info' | 'warn') => void = () => undefined,
    vectorDir?: string,
  ): Promise<SemanticSearch | null> {
    const model = await E5Model.load(modelDir, (why) => log(`semantic search: the model process ended (${why}); the next question starts it again`, 'warn'));
    if (typeof model === 'string') {
      log(`semantic search off: ${model}; knowledge search uses BM25 alone`);
      return null;
    }
    let saved: VectorFile | null = null;
    if (vectorDir !== undefined) {
      const path = join(vectorDir, `${model.name}.vectors`);
      try {
        saved = VectorFile.open(path, model.dimensions);
      } catch (e) {
        log(`semantic search: vectors are not kept across restarts (${path}: ${(e as Error).message})`, 'warn');
      }
    }
    log(
      `semantic search on: ${model.name} (${model.dimensions} dimensions) from ${model.modelDir}${saved ? `, ${saved.size} vectors kept in ${saved.path}` : ''}`,
    );
    return new SemanticSearch(model, saved);
  }

  async close(): Promise<void> {
    await this.model.close();
    this.saved?.close();
  }

  /** Unit-length embeddings of the texts, in order (cached; passages' also on disk). */
  async embed(texts: readonly string[], kind: 'query' | 'passage'): Promise<Float32Array[]> {
    const key = (t: string) => `${kind[0]}:${t}`;
    const fromDisk = (t: string) => (kind === 'passage' ? this.saved?.get(VectorFile.key(kind, t)) : undefined);
    const missing: string[] = [];
    for (const t of new Set(texts)) {
      if (this.cache.has(key(t))) continue;
      const saved = fromDisk(t);
      if (saved) this.cache.set(key(t), saved);
      else missing.push(t);
    }
    if (missing.length > 0) {
      const vectors = await this.model.embed(missing, kind);
      if (this.cache.size + missing.length > CACHE_SIZE) this.cache.clear();
      missing.forEach((t, i) => {
        this.cache.set(key(t), vectors[i]);
        if (kind === 'passage') this.save(t, vectors[i]);
      });
    }
    return Promise.all(texts.map(async (t) => this.cache.get(key(t)) ?? (await this.model.embed([t], kind))[0]));
  }

  /** The passages' embeddings, in order: those not embedded yet come from disk or the model. */
  async passageVectors(passages: readonly Passage[]): Promise<Float32Array[]> {
    const missing: Passage[] = [];
    const texts: string[] = [];
    for (const p of passages) {
      if (this.vectors.has(p)) continue;
      const text = passageForEmbedding(p);
      const saved = this.saved?.get(VectorFile.key('passage', text));
      if (saved) this.vectors.set(p, saved);
      else {
        missing.push(p);
        texts.push(text);
      }
    }
    if (missing.length > 0) {
      const vectors = await this.model.embed(texts, 'passage');
      missing.forEach((p, i) => {
        this.vectors.set(p, vectors[i]);
        this.save(texts[i], vectors[i]);
      });
    }
    return passages.map((p) => this.vectors.get(p)!);
  }

  /** A disk that fails (full, gone) costs only the saving: the vector is used all the same. */
  private save(text: string, vector: Float32Array): void {
    try {
      this.saved?.put(VectorFile.key('passage', text), vector);
    } catch {
      this.saved = null;
    }
  }

  /** Embeds passages ahead of the questions that will need them (an article indexed). */
  warm(passages: readonly Passage[]): Promise<void> {
    return this.passageVectors(passages).then(() => undefined);
  }

  /**
   * The question's similarity to the closest text of a list that never changes (the off-topic
   * rule's requests): the list's embeddings become one matrix on first use, so a turn compares
   * its message with some 280 texts in a few microseconds, not a cache lookup each.
   */
  async closestInList(query: string, list: readonly string[]): Promise<number> {
    let matrix = this.lists.get(list);
    const [[q], vectors] = await Promise.all([this.embed([query], 'query'), matrix ? null : this.embed(list, 'passage')]);
    if (!matrix) {
      matrix = new VectorMatrix(vectors!, this.model.dimensions);
      this.lists.set(list, matrix);
    }
    // Read at once: the matrix reuses its scores array.
    return matrix.scores(q).reduce((best, s) => Math.max(best, s), -1);
  }

  /** Cosine similarity of the question and each text (a sentence of an answer, say). */
  async textSimilarities(query: string, texts: readonly string[]): Promise<number[]> {
    const [[q], vs] = await Promise.all([this.embed([query], 'query'), this.embed(texts, 'passage')]);
    return vs.map((v) => dot(q, v));
  }

  /**
   * The best `topK` passages in scope, by similarity + FUSION_BM25_WEIGHT × BM25 / best BM25,
   * with `similarity` set, among those that share a word with the question or reach
   * MIN_SIMILARITY, then the best SENTENCE_POOL re-scored by their closest sentence; at most
   * the index's `maxPerArticle` passages of one article. Ties: article id, passage order.
   */
  async search(index: KnowledgeIndex, workspaceId: string, query: string, topK: number, scope: SearchScope = {}): Promise<SearchHit[]> {
    if (topK <= 0 || index.articleCount(workspaceId) === 0) return [];
    const [[q], built] = await Promise.all([this.embed([query], 'query'), this.matrixOf(index, workspaceId)]);
    let rows = built;
    // An article changed while passages were embedded: the matrix again, so that its rows are the BM25 scores' rows.
    while (rows.layout !== index.rows(workspaceId)) rows = await this.matrixOf(index, workspaceId);
    const cap = index.options.maxPerArticle > 0 ? index.options.maxPerArticle : Infinity;
    const bm25 = index.lexicalRows(workspaceId, query, scope);
    const kept = bestRows(rows, q, bm25, scope.customerFacing === true, cap, Math.max(topK, SENTENCE_POOL));
    const rescored = kept.rows.map((row) => {
      let closest = 0;
      for (const s of rows.sentences.scores(q, rows.sentenceStart[row], rows.sentenceStart[row + 1])) closest = Math.max(closest, s);
      return { passage: rows.layout.passages[row], similarity: kept.similarities[row], score: rows.fused[row] + SENTENCE_WEIGHT * closest };
    });
    return rescored.sort(compareHits).slice(0, topK);
  }

  /** The workspace's passage matrix, built again once its articles have changed since. */
  private async matrixOf(index: KnowledgeIndex, workspaceId: string): Promise<PassageMatrix> {
    const layout = index.rows(workspaceId);
    const { passages } = layout;
    let entry = this.matrices.get(workspaceId);
    if (entry?.layout !== layout) {
      const [vectors, ofPassages] = await Promise.all([this.passageVectors(passages), Promise.all(passages.map((p) => this.sentencesOf(p)))]);
      const sentenceStart = new Int32Array(passages.length + 1);
      ofPassages.forEach((v, i) => (sentenceStart[i + 1] = sentenceStart[i] + v.length));
      const matrix = new VectorMatrix(vectors, this.model.dimensions);
      const sentences = new VectorMatrix(ofPassages.flat(), this.model.dimensions);
      const fused = new Float64Array(passages.length);
      entry = { layout, matrix, sentences, sentenceStart, fused, bytes: matrix.bytes + sentences.bytes + fused.byteLength };
    }
    this.forget(workspaceId);
    this.matrices.set(workspaceId, entry);
    this.matrixBytes += entry.bytes;
    for (const id of this.matrices.keys()) {
      if (this.matrixBytes <= MATRIX_BYTES || id === workspaceId) break;
      this.forget(id);
    }
    return entry;
  }

  private forget(workspaceId: string): void {
    const entry = this.matrices.get(workspaceId);
    if (entry === undefined) return;
    this.matrixBytes -= entry.bytes;
    this.matrices.delete(workspaceId);
  }

  /** A passage's sentences' embeddings (from the cache or disk when the article was indexed). */
  private async sentencesOf(passage: Passage): Promise<Float32Array[]> {
    let vectors = this.sentenceVectors.get(passage);
    if (!vectors) {
      vectors = await this.embed(answerTexts(passage), 'passage');
      this.sentenceVectors.set(passage, vectors);
    }
    return vectors;
  }
}

/** Knowledge search of the query with its slips put right: hybrid when the model runs, else the index's BM25 (exactly `index.search`). */
export const searchKnowledge = (
  index: KnowledgeIndex,
  semantic: SemanticSearch | null,
  workspaceId: string,
  query: string,
  topK: number,
  scope: SearchScope = {},
): Promise<SearchHit[]> => {
  const asked = index.spellChecked(workspaceId, query, scope);
  return semantic ? semantic.search(index, workspaceId, asked, topK, scope) : Promise.resolve(index.search(workspaceId, asked, topK, scope));
};
