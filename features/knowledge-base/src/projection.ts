import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { ArticleEvent } from './events';

/** Knowledge base articles; indexes serve the `status` and `type` filters. */
export const ARTICLES = { name: 'knowledge_base_articles', indexes: [['workspace_id'], ['workspace_id', 'status'], ['workspace_id', 'type']] } as const;

/** A knowledge-base article as the read model holds it; `indexed` is set by the agent's knowledge index. */
export type ArticleDocument = Doc & Extract<ArticleEvent, { type: 'knowledge_base_article.created' }>['data'] & { updated_at: string };

export const articlesProjection: Projection<ArticleDocument, ArticleEvent> = {
  collection: ARTICLES,
  handles: ['knowledge_base_article.created', 'knowledge_base_article.updated', 'knowledge_base_article.indexed'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'knowledge_base_article.created':
        return { ...e.data, updated_at: at };
      case 'knowledge_base_article.updated':
        return doc && { ...doc, ...e.data.changes, updated_at: at };
      // Set by the agent's knowledge index; not a change of the article's content.
      case 'knowledge_base_article.indexed':
        return doc && { ...doc, indexed: e.data.indexed };
      default:
        return doc;
    }
  },
};
