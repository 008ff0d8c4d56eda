import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

/** Spec 2.10 and the operator interface. */
export const ARTICLE_STATUSES = ['draft', 'published'] as const;
export const ARTICLE_TYPES = ['public_article', 'internal_article'] as const;
export const ArticleStatus = t.keyof({ draft: null, published: null });
export const ArticleType = t.keyof({ public_article: null, internal_article: null });

/** Every field of the knowledge_base_article resource but `object`, `id` and `updated_at`. */
const fields = {
  title: t.string,
  content: t.string,
  description: nullable(t.string),
  tags: t.array(t.string),
  category: nullable(t.string),
  status: ArticleStatus,
  type: ArticleType,
  is_public: t.boolean,
  ai_agent_enabled: t.boolean,
  indexed: t.boolean,
  created_at: t.string,
};

export const ArticleCreated = eventCodec('knowledge_base_article.created', t.type({ id: t.string, workspace_id: t.string, ...fields }));
export const ArticleChanges = t.partial(fields);
export type ArticleChanges = t.TypeOf<typeof ArticleChanges>;
export const ArticleUpdated = eventCodec('knowledge_base_article.updated', t.type({ id: t.string, changes: ArticleChanges }));

/** The agent's knowledge index made the article searchable (or dropped it): its `indexed` flag. */
export const ArticleIndexed = eventCodec('knowledge_base_article.indexed', t.type({ id: t.string, indexed: t.boolean }));

export const ArticleEvent = t.union([ArticleCreated, ArticleUpdated, ArticleIndexed]);
export type ArticleEvent = t.TypeOf<typeof ArticleEvent>;
