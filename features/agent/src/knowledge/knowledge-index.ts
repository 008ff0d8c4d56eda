import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { spellChecked } from './spelling';
import { referredTo } from './cross-references';
import { splitArticle } from './passages';
import { term, terms, tokenize } from './text';
import { searchableText } from './ranking';
import { topRows } from './top-rows';
import { TermScoreCache } from './term-scores';
import { layOut, type Layout, NO_ROWS } from './layout';
import type { ArticleForIndex, Coverage, KnowledgeIndexOptions, LexicalRows, Passage, SearchHit, SearchScope } from './types';

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
  /** Documents as indexed (MiniSearch.remove needs them verbatim). */
  passageDocs: Map<string, PassageDoc>;
  articleDocs: Map<string, ArticleDoc>;
  /** term -> number of indexed articles (title + body) containing it. */
  df: Map<string, number>;
  /** Its passages in rows, made when first needed after a change (KnowledgeIndex.rows). */
  layout: Layout | null;
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
      const created: Workspace = {
        passageIndex,
        articleIndex,
        articles: new Map(),
        passageDocs: new Map(),
        articleDocs: new Map(),
        df: new Map(),
        layout: null,
        passageTerms: new TermScoreCache(
          passageIndex,
          { ...common, boost: { title: boost.title ?? 1, heading: boost.heading ?? 1, text: boost.text ?? 1 } },
          (id) => this.layoutOf(created).row.get(id) ?? -1,
        ),
        articleTerms: new TermScoreCache(
          articleIndex,
          { ...common, boost: { title: boost.title ?? 1, text: boost.text ?? 1 } },
          (id) => this.layoutOf(created).articleNumber.get(id) ?? -1,
        ),
      };
      ws = created;
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

  /** The workspace's passages in rows, article by article: the same object until its articles change. */
  rows(workspaceId: string): Layout {
    const ws = this.workspace(workspaceId);
    return ws ? this.layoutOf(ws) : NO_ROWS;
  }

  /** The query with its slips put right against the words of the workspace's passages in scope (spelling.ts). */
  spellChecked(workspaceId: string, query: string, scope: SearchScope = {}): string {
    return spellChecked(query, this.rows(workspaceId), scope.customerFacing === true);
  }

  /** The customer-facing passages of the articles a passage sends its reader to by title (cross-references.ts). */
  referredTo(workspaceId: string, passage: Passage): Passage[] {
    return referredTo(this.rows(workspaceId), passage);
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
    return this.rows(workspaceId).passages.filter((p) => !scope.customerFacing || p.customerFacing);
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
    if (topK <= 0) return [];
    const { passages, scores } = this.lexicalRows(workspaceId, query, scope);
    const layout = this.rows(workspaceId);
    // Only passages that match: topRows leaves out the rows scored -Infinity.
    for (let i = 0; i < scores.length; i++) if (!(scores[i] > 0)) scores[i] = -Infinity;
    const cap = this.options.maxPerArticle > 0 ? this.options.maxPerArticle : Infinity;
    return topRows(scores, layout.articleOf, layout.tieRank, cap, topK).map((row) => ({ passage: passages[row], score: scores[row] }));
  }

  /**
   * Every passage's BM25 score, its own plus `articleWeight` × its article's, row by row as
   * `rows` gives them (0: it matches nothing, or is out of scope); `best`, the highest.
   */
  lexicalRows(workspaceId: string, query: string, scope: SearchScope = {}): LexicalRows {
    const ws = this.workspace(workspaceId);
    if (ws === undefined) return { passages: NO_ROWS.passages, scores: new Float64Array(0), best: 0 };
    const layout = this.layoutOf(ws);
    const q = terms(query);
    const scores = new Float64Array(layout.passages.length);
    ws.passageTerms.scoresInto(q, scores);
    const { articleWeight } = this.options;
    const shares = new Float64Array(articleWeight > 0 ? layout.articleNumber.size : 0);
    if (articleWeight > 0) ws.articleTerms.scoresInto(q, shares);
    let best = 0;
    for (let i = 0; i < scores.length; i++) {
      if (scope.customerFacing && layout.customerFacing[i] === 0) scores[i] = 0;
      else if (articleWeight > 0) scores[i] += articleWeight * shares[layout.articleOf[i]];
      best = Math.max(best, scores[i]);
    }
    return { passages: layout.passages, scores, best };
  }

  private layoutOf(ws: Workspace): Layout {
    ws.layout ??= layOut(ws.articles);
    return ws.layout;
  }

  private changed(ws: Workspace): void {
    ws.layout = null;
    ws.passageTerms.clear();
    ws.articleTerms.clear();
  }
}
