import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { splitArticle } from './passages';
import { term, terms, tokenize } from './text';
import { keepBest, searchableText } from './ranking';
import { TermScoreCache } from './term-scores';
import type { ArticleForIndex, Coverage, KnowledgeIndexOptions, LexicalScores, Passage, SearchHit, SearchScope } from './types';

/**
 * Per-workspace full-text index of knowledge base passages: MiniSearch's BM25 (k1 1.2, b 0.7,
 * d 0.5) with the analyzer of text.ts (stop words dropped, Porter2 stems). Two indexes per
 * workspace: passages (`title`, `heading`, `text`, with field boosts) and whole articles, used
 * as context: a passage scores its own BM25 plus `articleWeight` × its article's, since
 * customers' words are often spread over several paragraphs of the right article. On the
 * fixture (tests/fixtures/knowledge, 110 questions, top 8), recall@1 / recall@5 / MRR: passages
 * alone 0.764 / 0.900 / 0.821; with the article context 0.773 / 0.927 / 0.839. Prefix and
 * fuzzy matching did not measurably help (±1 question) and stay off. Each workspace has its own
 * instances, so one workspace's search never touches another's passages or term statistics.
 */
/** Defaults chosen on the fixture (tests/fixtures/knowledge); figures in the quality test. */
export const DEFAULT_INDEX_OPTIONS: Required<KnowledgeIndexOptions> = {
  boost: { title: 1.5, heading: 1, text: 1 },
  articleWeight: 1,
  maxPerArticle: 2,
  prefix: false,
  fuzzy: false,
};

interface PassageDoc {
  id: string;
  title: string;
  heading: string;
  text: string;
}
interface ArticleDoc {
  id: string;
  title: string;
  text: string;
}

interface Workspace {
  passageIndex: MiniSearch<PassageDoc>;
  articleIndex: MiniSearch<ArticleDoc>;
  /** article id -> its passages, in order. */
  articles: Map<string, Passage[]>;
  /** passage id -> passage. */
  passages: Map<string, Passage>;
  /** Documents as indexed (MiniSearch.remove needs them verbatim). */
  passageDocs: Map<string, PassageDoc>;
  articleDocs: Map<string, ArticleDoc>;
  /** term -> number of indexed articles (title + body) containing it. */
  df: Map<string, number>;
  /** Changes with every article indexed or removed (see KnowledgeIndex.version). */
  version: number;
  /** The two indexes' scores by query term, until an article changes. */
  passageTerms: TermScoreCache<PassageDoc>;
  articleTerms: TermScoreCache<ArticleDoc>;
}

const analyzer = {
  tokenize: (text: string) => tokenize(text),
  processTerm: (token: string) => term(token),
  // Removal is exact (remove(), not discard()), so no vacuuming is ever needed.
  autoVacuum: false,
} satisfies Partial<Options>;

export class KnowledgeIndex {
  private readonly workspaces = new Map<string, Workspace>();
  /** Counts every change to any workspace: a workspace's version is the count at its last change. */
  private changes = 0;
  readonly options: Readonly<Required<KnowledgeIndexOptions>>;

  constructor(options: KnowledgeIndexOptions = {}) {
    this.options = {
      ...DEFAULT_INDEX_OPTIONS,
      ...options,
      boost: { ...DEFAULT_INDEX_OPTIONS.boost, ...options.boost },
    };
  }

  private workspace(workspaceId: string): Workspace | undefined {
    return this.workspaces.get(workspaceId);
  }

  private createWorkspace(workspaceId: string): Workspace {
    let ws = this.workspaces.get(workspaceId);
    if (ws === undefined) {
      const { boost, prefix, fuzzy } = this.options;
      const common: SearchOptions = { combineWith: 'OR', prefix, fuzzy };
      const passageIndex = new MiniSearch<PassageDoc>({ fields: ['title', 'heading', 'text'], storeFields: [], ...analyzer });
      const articleIndex = new MiniSearch<ArticleDoc>({ fields: ['title', 'text'], storeFields: [], ...analyzer });
      ws = {
        passageIndex,
        articleIndex,
        articles: new Map(),
        passages: new Map(),
        passageDocs: new Map(),
        articleDocs: new Map(),
        df: new Map(),
        version: 0,
        passageTerms: new TermScoreCache(passageIndex, { ...common, boost: { title: boost.title ?? 1, heading: boost.heading ?? 1, text: boost.text ?? 1 } }),
        articleTerms: new TermScoreCache(articleIndex, { ...common, boost: { title: boost.title ?? 1, text: boost.text ?? 1 } }),
      };
      this.workspaces.set(workspaceId, ws);
    }
    return ws;
  }

  /**
   * Indexes the article when it is published and enabled for the AI agent,
   * replacing any earlier version of it; otherwise removes it. Returns whether
   * the article is now searchable.
   */
  upsert(article: ArticleForIndex): boolean {
    this.remove(article.workspace_id, article.id);
    if (article.status !== 'published' || article.ai_agent_enabled !== true) return false;
    const ws = this.createWorkspace(article.workspace_id);
    const passages = splitArticle(article);
    const docs = passages.map((p) => ({ id: p.id, title: p.title, heading: p.heading ?? '', text: searchableText(p.text) }));
    const articleDoc = { id: article.id, title: article.title, text: searchableText(article.content) };
    ws.passageIndex.addAll(docs);
    ws.articleIndex.add(articleDoc);
    ws.articles.set(article.id, passages);
    ws.articleDocs.set(article.id, articleDoc);
    for (const t of new Set(terms(`${articleDoc.title} ${articleDoc.text}`))) ws.df.set(t, (ws.df.get(t) ?? 0) + 1);
    for (const p of passages) ws.passages.set(p.id, p);
    for (const d of docs) ws.passageDocs.set(d.id, d);
    this.changed(ws);
    return true;
  }

  /** Removes an article's passages from its workspace (no-op when not indexed). */
  remove(workspaceId: string, articleId: string): void {
    const ws = this.workspace(workspaceId);
    const passages = ws?.articles.get(articleId);
    if (ws === undefined || passages === undefined) return;
    for (const p of passages) {
      const doc = ws.passageDocs.get(p.id);
      if (doc !== undefined) ws.passageIndex.remove(doc);
      ws.passageDocs.delete(p.id);
      ws.passages.delete(p.id);
    }
    const articleDoc = ws.articleDocs.get(articleId);
    if (articleDoc !== undefined) {
      ws.articleIndex.remove(articleDoc);
      for (const t of new Set(terms(`${articleDoc.title} ${articleDoc.text}`))) {
        const n = (ws.df.get(t) ?? 0) - 1;
        if (n > 0) ws.df.set(t, n);
        else ws.df.delete(t);
      }
    }
    ws.articleDocs.delete(articleId);
    ws.articles.delete(articleId);
    this.changed(ws);
    if (ws.articles.size === 0) this.workspaces.delete(workspaceId);
  }

  /** Drops a workspace's whole index. */
  clear(workspaceId: string): void {
    this.workspaces.delete(workspaceId);
  }

  /** Differs after any change to the workspace's articles, even once emptied and refilled (0: none). */
  version(workspaceId: string): number {
    return this.workspace(workspaceId)?.version ?? 0;
  }

  isIndexed(workspaceId: string, articleId: string): boolean {
    return this.workspace(workspaceId)?.articles.has(articleId) ?? false;
  }

  articleCount(workspaceId: string): number {
    return this.workspace(workspaceId)?.articles.size ?? 0;
  }

  /** The indexed passages of one article, in article order ([] when not indexed). */
  passagesOf(workspaceId: string, articleId: string): Passage[] {
    return [...(this.workspace(workspaceId)?.articles.get(articleId) ?? [])];
  }

  /** Every indexed passage of the workspace in scope, article by article in article order. */
  passagesIn(workspaceId: string, scope: SearchScope = {}): Passage[] {
    const out: Passage[] = [];
    for (const passages of this.workspace(workspaceId)?.articles.values() ?? []) {
      if (!scope.customerFacing || passages[0]?.customerFacing) out.push(...passages);
    }
    return out;
  }

  /**
   * How much of the query the passage covers: the share of the query's distinct terms found in
   * the passage's title, heading or text, plain and idf-weighted (idf over the workspace's
   * articles: words every article uses, like the product's name, count little; words no article
   * uses count most). A relevance signal independent of the unnormalised scores.
   */
  coverage(workspaceId: string, query: string, passage: Passage): Coverage {
    const ws = this.workspace(workspaceId);
    const q = [...new Set(terms(query))];
    if (q.length === 0) return { terms: 0, matched: 0, share: 0, idfShare: 0 };
    const inPassage = new Set(terms(`${passage.title} ${passage.heading ?? ''} ${searchableText(passage.text)}`));
    const n = ws?.articles.size ?? 0;
    const idf = (t: string) => {
      const df = ws?.df.get(t) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    };
    let matched = 0;
    let weight = 0;
    let matchedWeight = 0;
    for (const t of q) {
      const w = idf(t);
      weight += w;
      if (inPassage.has(t)) {
        matched += 1;
        matchedWeight += w;
      }
    }
    return { terms: q.length, matched, share: matched / q.length, idfShare: weight > 0 ? matchedWeight / weight : 0 };
  }

  /**
   * The best `topK` passages of the workspace for the query, best first. Ties
   * are broken by article id, then passage order, so results are deterministic.
   * At most `maxPerArticle` passages of one article are returned. With `customerFacing`, only
   * public articles' passages: internal content never reaches a customer's answer.
   */
  search(workspaceId: string, query: string, topK: number, scope: SearchScope = {}): SearchHit[] {
    const ws = this.workspace(workspaceId);
    if (ws === undefined || topK <= 0) return [];
    // Ranked article by article: each passage of a matched article scores its own BM25 plus the
    // article's share; the article's best maxPerArticle go on to the topK. The first topK of
    // the whole ranking with that cap are exactly these: no sort of every matching passage
    // (a few hundred for a question of common words), one map read per passage.
    const cap = this.options.maxPerArticle > 0 ? this.options.maxPerArticle : Infinity;
    const hits: SearchHit[] = [];
    const best: SearchHit[] = [];
    this.scoreArticles(ws, query, scope, (passages, scoreOf) => {
      best.length = 0;
      for (const passage of passages) {
        const score = scoreOf(passage);
        if (score > 0) keepBest(best, { passage, score }, cap);
      }
      for (const hit of best) keepBest(hits, hit, topK);
    });
    return hits;
  }

  /** Every passage's BM25 score in scope (its own plus its article's share), read as the hybrid search meets it. */
  lexicalScores(workspaceId: string, query: string, scope: SearchScope = {}): LexicalScores {
    const ws = this.workspace(workspaceId);
    if (ws === undefined) return { best: 0, of: () => undefined };
    const { own, context } = this.matches(ws, query);
    const inScope = (p: Passage) => !scope.customerFacing || p.customerFacing;
    let best = 0;
    for (const [id, score] of own) {
      const p = ws.passages.get(id);
      if (p !== undefined && inScope(p)) best = Math.max(best, score + (context.get(p.articleId) ?? 0));
    }
    for (const [articleId, score] of context) {
      const first = ws.articles.get(articleId)?.[0];
      if (first !== undefined && inScope(first)) best = Math.max(best, score);
    }
    const of = (p: Passage) => {
      const score = inScope(p) ? (own.get(p.id) ?? 0) + (context.get(p.articleId) ?? 0) : 0;
      return score > 0 ? score : undefined;
    };
    return { best, of };
  }

  /** Each matching passage's own BM25 score by passage id; each matching article's share by article id. */
  private matches(ws: Workspace, query: string): { own: Map<string, number>; context: Map<string, number> } {
    const q = terms(query);
    const own = ws.passageTerms.scores(q);
    const context = new Map<string, number>();
    if (this.options.articleWeight > 0) for (const [id, score] of ws.articleTerms.scores(q)) context.set(id, this.options.articleWeight * score);
    return { own, context };
  }

  private changed(ws: Workspace): void {
    ws.version = ++this.changes;
    ws.passageTerms.clear();
    ws.articleTerms.clear();
  }

  /** Calls `visit` once for each article in scope that matches the query, with its passages' scorer. */
  private scoreArticles(ws: Workspace, query: string, scope: SearchScope, visit: (passages: Passage[], scoreOf: (p: Passage) => number) => void): void {
    const { own, context } = this.matches(ws, query);
    const visited = new Set<string>();
    const article = (articleId: string, share: number) => {
      visited.add(articleId);
      const passages = ws.articles.get(articleId) ?? [];
      if (scope.customerFacing && !passages[0]?.customerFacing) return;
      visit(passages, (p) => (own.get(p.id) ?? 0) + share);
    };
    for (const [articleId, share] of context) article(articleId, share);
    for (const id of own.keys()) {
      const articleId = ws.passages.get(id)?.articleId;
      if (articleId !== undefined && !visited.has(articleId)) article(articleId, 0);
    }
  }
}
