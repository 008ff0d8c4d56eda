import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { compareHits, KnowledgeIndex, searchableText } from './knowledge-index';
import type { Passage, SearchHit, SearchScope } from './types';

/**
 * Optional local semantic re-ranker: all-MiniLM-L6-v2 (int8 ONNX, 384
 * dimensions) run by `@huggingface/transformers` on `onnxruntime-node`.
 *
 * The model is not in git or npm. `scripts/fetch-model.sh` puts it in
 * `models/all-MiniLM-L6-v2` (git-ignored). `@huggingface/transformers` is an
 * optional dependency. Without the model or the package, `Reranker.load`
 * returns null and search runs on BM25 alone.
 *
 * Ranking: the BM25 candidates (top RERANK_CANDIDATES passages) are re-scored
 * with cosine(query, passage) + FUSION_BM25_WEIGHT × bm25 / best bm25. On the
 * fixture (tests/fixtures/knowledge, 110 questions, top 8 passages):
 *   BM25 alone                 recall@1 0.773  recall@5 0.927  MRR 0.839
 *   cosine re-rank only        recall@1 0.845  recall@5 0.991  MRR 0.907
 *   fused (default)            recall@1 0.900  recall@5 0.991  MRR 0.939
 */

/** BM25 passages handed to the re-ranker (24..60 measured the same on the fixture). */
export const RERANK_CANDIDATES = 40;
/** Weight of the max-normalised BM25 score added to the cosine similarity (0.1..0.2 measured within 2 questions). */
export const FUSION_BM25_WEIGHT = 0.15;
/**
 * Suggested relevance threshold on `SearchHit.similarity` of the best hit
 * (fixture: 101/110 on-topic questions above it, 8/11 off-topic below).
 */
export const MIN_SIMILARITY = 0.45;
/** A closer call: this similarity is enough when half the question's terms are in the passage too. */
export const MIN_SIMILARITY_WITH_TERMS = 0.35;

/** The files the model folder must hold (the layout scripts/fetch-model.sh writes). */
export const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model_quantized.onnx'] as const;

/** `EMBEDDING_MODEL_DIR`, else `<repo>/models/all-MiniLM-L6-v2`. */
export const defaultModelDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.EMBEDDING_MODEL_DIR !== undefined && env.EMBEDDING_MODEL_DIR !== ''
    ? resolve(env.EMBEDDING_MODEL_DIR)
    : resolve(__dirname, '../../../../models/all-MiniLM-L6-v2');

/** Names of MODEL_FILES missing from a folder ([] when complete). */
export const missingModelFiles = (modelDir: string): string[] => MODEL_FILES.filter((f) => !existsSync(join(modelDir, f)));

/** The text a passage is embedded as: title, heading and body, without URLs. */
export const passageForEmbedding = (p: Passage): string =>
  `${p.title}. ${p.heading !== null && p.heading !== '' ? `${p.heading}. ` : ''}${searchableText(p.text)}`.replace(/\s+/g, ' ').trim();

/* The parts of @huggingface/transformers used here, typed locally so the
 * build does not depend on the optional package being installed. */
interface Tensor {
  dims: number[];
  data: Float32Array;
}
type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<Tensor>;
interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline: (task: 'feature-extraction', model: string, options: Record<string, unknown>) => Promise<Extractor>;
}

// A variable specifier: TypeScript neither resolves it at build time nor turns
// the dynamic import into require() (module node16 keeps import()).
const TRANSFORMERS = '@huggingface/transformers';

export interface RerankerOptions {
  /** Receives one line on why the model is not used, or which one is. */
  log?: (message: string) => void;
  /** Texts per model call. */
  batchSize?: number;
  /** Embeddings kept in memory (by text). */
  cacheSize?: number;
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

export class Reranker {
  private readonly cache = new Map<string, Float32Array>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly modelDir: string,
    readonly dimensions: number,
    private readonly extractor: Extractor,
    private readonly batchSize: number,
    private readonly cacheSize: number,
  ) {}

  /**
   * Loads the model from `modelDir` (a folder laid out as MODEL_FILES). Returns
   * null, after logging why, when the folder is incomplete, the optional
   * `@huggingface/transformers` package is missing, or the model fails to run.
   * Never throws.
   */
  static async load(modelDir: string = defaultModelDir(), options: RerankerOptions = {}): Promise<Reranker | null> {
    const log = options.log ?? (() => undefined);
    const dir = resolve(modelDir);
    const missing = missingModelFiles(dir);
    if (missing.length > 0) {
      log(`semantic re-ranker off: no model in ${dir} (missing ${missing.join(', ')}; run scripts/fetch-model.sh); knowledge search uses BM25 alone`);
      return null;
    }
    let tf: Transformers;
    try {
      tf = (await import(TRANSFORMERS)) as Transformers;
    } catch (e) {
      log(`semantic re-ranker off: ${TRANSFORMERS} is not installed (${(e as Error).message.split('\n')[0]}); knowledge search uses BM25 alone`);
      return null;
    }
    try {
      tf.env.allowRemoteModels = false;
      tf.env.allowLocalModels = true;
      tf.env.localModelPath = `${dirname(dir)}/`;
      const extractor = await tf.pipeline('feature-extraction', basename(dir), { dtype: 'q8', local_files_only: true });
      const probe = await extractor(['probe'], { pooling: 'mean', normalize: true });
      const dimensions = probe.dims[probe.dims.length - 1] ?? 0;
      if (dimensions <= 0) throw new Error(`unexpected output shape ${JSON.stringify(probe.dims)}`);
      log(`semantic re-ranker on: ${basename(dir)} (${dimensions} dimensions) from ${dir}`);
      return new Reranker(dir, dimensions, extractor, options.batchSize ?? 16, options.cacheSize ?? 20_000);
    } catch (e) {
      log(`semantic re-ranker off: the model in ${dir} failed to load (${(e as Error).message.split('\n')[0]}); knowledge search uses BM25 alone`);
      return null;
    }
  }

  /** One model call at a time (calls are queued, never run concurrently). */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Unit-length embeddings of the texts, in order (cached by text). */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    for (let i = 0; i < missing.length; i += this.batchSize) {
      const batch = missing.slice(i, i + this.batchSize);
      const out = await this.serial(() => this.extractor(batch, { pooling: 'mean', normalize: true }));
      const d = out.dims[out.dims.length - 1];
      if (this.cache.size + batch.length > this.cacheSize) this.cache.clear();
      batch.forEach((t, j) => this.cache.set(t, out.data.slice(j * d, (j + 1) * d)));
    }
    return Promise.all(
      texts.map(async (t) => {
        const v = this.cache.get(t);
        // Evicted between batches by a full cache: embed alone.
        return v ?? (await this.embed([t]))[0];
      }),
    );
  }

  /** Cosine similarity of a query and each text (a sentence of an answer, say). */
  async textSimilarities(query: string, texts: readonly string[]): Promise<number[]> {
    const [q] = await this.embed([query]);
    const vs = await this.embed(texts);
    return vs.map((v) => dot(q, v));
  }

  /** Cosine similarity of a query and each passage (embeddings are unit length). */
  async similarities(query: string, passages: readonly Passage[]): Promise<number[]> {
    const [q] = await this.embed([query]);
    const vs = await this.embed(passages.map(passageForEmbedding));
    return vs.map((v) => dot(q, v));
  }

  /**
   * The same hits re-scored and re-sorted: `similarity` = cosine(query,
   * passage), `score` = similarity + FUSION_BM25_WEIGHT × score / best score
   * (`bm25Weight` 0 ranks by similarity alone). Ties: article id, passage order.
   */
  async rerank(query: string, hits: readonly SearchHit[], bm25Weight = FUSION_BM25_WEIGHT): Promise<SearchHit[]> {
    if (hits.length === 0) return [];
    const sims = await this.similarities(
      query,
      hits.map((h) => h.passage),
    );
    const best = Math.max(...hits.map((h) => h.score));
    return hits
      .map((h, i) => ({
        passage: h.passage,
        similarity: sims[i],
        score: sims[i] + (best > 0 ? (bm25Weight * h.score) / best : 0),
      }))
      .sort(compareHits);
  }
}

/**
 * Knowledge search with the optional re-ranker: the index's BM25 candidates
 * (at least RERANK_CANDIDATES), re-ranked when a reranker is given, cut to
 * `topK`. With `reranker` null this is exactly `index.search(…, topK)`.
 */
export const searchWithReranker = async (
  index: KnowledgeIndex,
  reranker: Reranker | null,
  workspaceId: string,
  query: string,
  topK: number,
  scope: SearchScope = {},
  candidates = RERANK_CANDIDATES,
): Promise<SearchHit[]> => {
  if (reranker === null) return index.search(workspaceId, query, topK, scope);
  const hits = index.search(workspaceId, query, Math.max(topK, candidates), scope);
  return (await reranker.rerank(query, hits)).slice(0, Math.max(0, topK));
};
