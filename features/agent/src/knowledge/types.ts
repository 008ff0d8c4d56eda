/** What the knowledge index needs of a knowledge base article (spec 2.10). */
export interface ArticleForIndex {
  id: string;
  workspace_id: string;
  title: string;
  content: string;
  status: 'draft' | 'published';
  ai_agent_enabled: boolean;
  type: 'public_article' | 'internal_article';
  is_public: boolean;
}

/** A searchable piece of an article: a heading's section or a paragraph. */
export interface Passage {
  /** `<article id>#<n>`, n counting from 0 in article order. */
  id: string;
  /** Its place in the article, counting from 0 (the `n` of its id): the tie-break of equal scores. */
  index: number;
  articleId: string;
  workspaceId: string;
  /** The article title (spec 2.7a `filename`). */
  title: string;
  /** The heading the passage sits under, if any. */
  heading: string | null;
  text: string;
  /** Its article's `type` and `is_public` (POST /agent/search shows them). */
  type: ArticleForIndex['type'];
  isPublic: boolean;
  /** A public article (type `public_article`, `is_public`): the only content a customer-facing turn may use. */
  customerFacing: boolean;
}

/** `customerFacing`: only passages a customer may be shown (an agent turn); otherwise every searchable one (operators' search). */
export interface SearchScope {
  customerFacing?: boolean;
}

export interface SearchHit {
  passage: Passage;
  /** Relevance, higher is better; comparable only within one search. */
  score: number;
  /**
   * Cosine similarity of the query and the passage embeddings (-1..1), set
   * only when the semantic re-ranker (embeddings.ts) scored the hit. Unlike
   * `score`, it is comparable across searches, so it can serve as a
   * relevance threshold.
   */
  similarity?: number;
}

export interface KnowledgeIndexOptions {
  /** Passage field weights (title above heading/body). */
  boost?: { title?: number; heading?: number; text?: number };
  /** Weight of the whole-article BM25 score added to each of its passages (0 = passages alone). */
  articleWeight?: number;
  /** At most this many passages of one article in a result list (0 = no cap). */
  maxPerArticle?: number;
  /** MiniSearch prefix matching of query terms. */
  prefix?: boolean;
  /** MiniSearch fuzzy matching (edit distance as a fraction of term length), false for none. */
  fuzzy?: number | false;
}

/** A query's BM25 scores in a workspace, passage by passage (KnowledgeIndex.lexicalRows). */
export interface LexicalRows {
  /** The workspace's passages, article by article (KnowledgeIndex.rows). */
  passages: readonly Passage[];
  /** Each passage's score, in the same order; 0 when it matches nothing or is out of scope. */
  scores: Float64Array;
  /** The highest of them. */
  best: number;
}

/** How much of a query a passage covers (see KnowledgeIndex.coverage). */
export interface Coverage {
  /** Distinct analysed terms of the query. */
  terms: number;
  /** How many of them occur in the passage's title, heading or text. */
  matched: number;
  /** matched / terms (0 when the query has no terms). */
  share: number;
  /** The same share with each term weighted by its BM25 idf over the workspace's articles (unseen terms weigh most). */
  idfShare: number;
}
