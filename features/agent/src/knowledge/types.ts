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
