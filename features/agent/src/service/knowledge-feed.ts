import * as E from 'fp-ts/Either';
import { ArticleEvent } from '@support/knowledge-base';
import { defaultModelDir } from '../knowledge/e5-model';
import { loadDictionary } from '../knowledge/spelling';
import { searchKnowledge, SemanticSearch } from '../knowledge/embeddings';
import { KnowledgeIndex } from '../knowledge/knowledge-index';
import { answerTexts, mentionedIn } from '../knowledge/sentences';
import { offTopic } from '../rules/off-topic';
import { tellsOwnDealings } from '../rules/own-dealings';
import { leansOnPart, questionParts } from '../rules/question-parts';
import { asksTheBusiness, unknownSubject } from '../rules/unknown-subject';
import { unannounced } from '../rules/unannounced';
import type { QuestionPart } from '../responders/types';
import { ArticleForIndex, SearchHit, SearchScope } from '../knowledge/types';
import { ConsumerHealth, EventStore, Position, RecordedEvent, RetryingSubscription, START, comparePositions } from '@support/eventstore';
import { Logger } from '@support/application';

type Article = ArticleForIndex & { indexed: boolean };

/**
 * The agent's knowledge index as a projection kept in memory: it follows the log's article
 * events from the start (so it is rebuilt at every start; losing it loses nothing), one index
 * per workspace. When an article becomes searchable, or stops being so, its `indexed` flag is
 * recorded through `markIndexed` (idempotent: the article decider records only a change).
 */
export class KnowledgeFeed {
  readonly index = new KnowledgeIndex();
  private readonly articles = new Map<string, Article>();
  private subscription: RetryingSubscription | null = null;
  private position: Position = START;
  private waiters: { target: Position; wake: () => void }[] = [];
  /** The embedding model's search, when the model runs; null: BM25 alone. */
  private semantic: SemanticSearch | null = null;
  /** The log head when the feed started: until it is reached, `indexed` flags are compared only once, at the end. */
  private startHead: Position | null = null;
  private readonly unsettled = new Set<string>();

  constructor(
    private readonly events: EventStore,
    private readonly markIndexed: (workspaceId: string, articleId: string, indexed: boolean) => Promise<void>,
    private readonly log: Logger,
    /** `off` keeps BM25 alone even with the model present; `auto` uses the model when it loads. */
    private readonly rerank: 'auto' | 'off' = 'auto',
    /** Where the embedding model's vectors of articles are kept across restarts. */
    private readonly vectorDir?: string,
  ) {}

  async start(): Promise<void> {
    const started = Date.now();
    if (this.rerank === 'auto')
      this.semantic = await SemanticSearch.load(defaultModelDir(), (message, level = 'info') => this.log[level](message), this.vectorDir);
    else this.log.info('semantic search off (AGENT_RERANKER=off); knowledge search uses BM25 alone');
    loadDictionary();
    const head = await this.events.head();
    this.startHead = head;
    this.subscription = new RetryingSubscription(this.events, 'knowledge-index', START, (batch) => this.apply(batch), this.log);
    this.subscription.start();
    await this.waitFor(head, 60_000);
    this.log.info('knowledge index ready', { articles: this.articles.size, took_ms: Date.now() - started, ranking: this.ranking });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    await this.semantic?.close();
  }

  health(): ConsumerHealth | null {
    return this.subscription?.health() ?? null;
  }

  /** `bm25`, or `hybrid:<model>` when the embedding model runs. */
  get ranking(): string {
    return this.semantic ? `hybrid:${this.semantic.model.name}` : 'bm25';
  }

  /** Passages best first: hybrid (meaning and BM25) when the model runs, else BM25. */
  search(workspaceId: string, query: string, topK: number, scope: SearchScope = {}): Promise<SearchHit[]> {
    return searchKnowledge(this.index, this.semantic, workspaceId, query, topK, scope);
  }

  /**
   * What a customer's message may be answered from: public passages; none, and `offTopic`, when
   * it asks for something off-topic (rules/off-topic.ts); none when it asks whether something
   * the public articles never name is so (rules/unknown-subject.ts). Such a question put to the
   * business ("Do you deliver to Australia?") is that, not off-topic, however near a request
   * about Australia is: in a help centre without a word on delivery it was declined as off-topic
   * instead of handed to a person (a newcomer's trial). None either when it asks about a change
   * no article announces, or a deal no article offers or for someone none names (rules/unannounced.ts).
   * A customer's own order or account is never off-topic (rules/own-dealings.ts).
   */
  async customerHits(workspaceId: string, asked: string, topK: number): Promise<{ hits: SearchHit[]; offTopic: boolean }> {
    // Its slips put right (knowledge/spelling.ts) before any rule reads it.
    const message = this.spellChecked(workspaceId, asked);
    // Emoji or punctuation alone ("🚗❓💸") ask nothing an article answers; the model still finds their nearest passage.
    if (!/[\p{L}\p{N}]/u.test(message)) return { hits: [], offTopic: true };
    const hits = await this.search(workspaceId, message, topK, { customerFacing: true });
    const passages = () => this.index.passagesIn(workspaceId, { customerFacing: true });
    const named = mentionedIn(passages);
    // Worked out once: it lists the workspace's passages for each name the question holds.
    let unknown: boolean | undefined;
    const namesUnknown = () => (unknown ??= unknownSubject(message, named));
    if ((asksTheBusiness(message) && namesUnknown()) || unannounced(message, passages)) return { hits: [], offTopic: false };
    // A customer's own order or account is never off-topic: nearer a request than any passage, it is unanswered.
    if (await offTopic(this.semantic, message, hits)) return { hits: [], offTopic: !tellsOwnDealings(message) };
    return { hits: hits.length > 0 && namesUnknown() ? [] : hits, offTopic: false };
  }

  /**
   * A message of two or three questions (rules/question-parts.ts), each part with what its query
   * finds for a customer, whether it leans on the part before, and its own similarity; undefined
   * for a message of one question.
   */
  async customerParts(workspaceId: string, message: string, topK: number): Promise<QuestionPart[] | undefined> {
    const parts = questionParts(message);
    if (parts.length < 2) return undefined;
    return Promise.all(
      parts.map(async (part) => ({
        message: part.text,
        hits: (await this.customerHits(workspaceId, part.query, topK)).hits,
        leans: leansOnPart(part),
        similarity: this.similarityTo(part.text),
      })),
    );
  }

  /** A customer's message with its slips put right against the public articles' words (knowledge/spelling.ts). */
  spellChecked(workspaceId: string, message: string): string {
    return this.index.spellChecked(workspaceId, message, { customerFacing: true });
  }

  /** How close in meaning each text is to `query` (the embedding model), or undefined when it does not run. */
  similarityTo(query: string): ((texts: readonly string[]) => Promise<number[]>) | undefined {
    const semantic = this.semantic;
    return semantic ? (texts) => semantic.textSimilarities(query, texts) : undefined;
  }

  /** Waits, bounded, until the index has seen the log up to `target`; false on time-out. */
  waitFor(target: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, target) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter = {
        target,
        wake: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  private async apply(batch: RecordedEvent[]): Promise<void> {
    const touched = new Set<string>();
    for (const event of batch) {
      if (!event.type.startsWith('knowledge_base_article.')) continue;
      const decoded = ArticleEvent.decode({ type: event.type, data: event.data });
      if (E.isLeft(decoded)) throw new Error(`article event at ${event.stream}@${event.revision} does not match its schema`);
      const e = decoded.right;
      const current = this.articles.get(e.data.id);
      if (e.type === 'knowledge_base_article.created') {
        const { id, workspace_id, title, content, status, ai_agent_enabled, indexed, type, is_public } = e.data;
        this.articles.set(id, { id, workspace_id, title, content, status, ai_agent_enabled, indexed, type, is_public });
      } else if (current && e.type === 'knowledge_base_article.updated') {
        const given = Object.entries(e.data.changes).filter(([key, value]) => value !== undefined && Object.hasOwn(current, key));
        this.articles.set(current.id, { ...current, ...Object.fromEntries(given) });
        // Only the fields the index reads make it index again (`indexed` is its own output).
        if (!given.some(([key]) => key !== 'indexed')) continue;
      } else if (current && e.type === 'knowledge_base_article.indexed') {
        this.articles.set(current.id, { ...current, indexed: e.data.indexed });
        continue;
      } else continue;
      touched.add(e.data.id);
    }
    for (const id of touched) {
      const article = this.articles.get(id)!;
      // Its passages, and the sentences an answer compares with a question, are embedded now, in
      // the background (and kept on disk), not when the first question needs them.
      const semantic = this.semantic;
      if (this.index.upsert(article) && semantic) {
        const passages = this.index.passagesOf(article.workspace_id, id);
        semantic
          .warm(passages)
          .then(() => semantic.embed(passages.flatMap(answerTexts), 'passage'))
          .catch((err: unknown) => this.log.warn('could not embed an article', { article_id: id, error: String(err) }));
      }
      this.unsettled.add(id);
    }
    this.position = batch[batch.length - 1].position;
    // While the start-up replay runs, an article's flag may already be recorded further on in
    // the log: compare flags once the replay has caught up, and from then on after every batch.
    if (this.startHead === null || comparePositions(this.position, this.startHead) >= 0) await this.settleIndexed();
    const ready = this.waiters.filter((w) => comparePositions(this.position, w.target) >= 0);
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.wake();
  }

  /** Records `indexed` where the index and the article's flag differ. */
  private async settleIndexed(): Promise<void> {
    for (const id of this.unsettled) {
      this.unsettled.delete(id);
      const article = this.articles.get(id)!;
      const searchable = this.index.isIndexed(article.workspace_id, article.id);
      if (searchable === article.indexed) continue;
      try {
        await this.markIndexed(article.workspace_id, article.id, searchable);
      } catch (err) {
        this.log.warn('could not record an article as indexed; it is searchable all the same', { article_id: article.id, error: String(err) });
      }
    }
  }
}
