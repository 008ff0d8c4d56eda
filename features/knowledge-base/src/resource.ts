import * as t from 'io-ts';
import { arrayOf, bool, literal, nullable, oneOf, str, struct, timestamp } from '@support/http';
import { ARTICLE_STATUSES, ARTICLE_TYPES } from './events';
import type { ArticleDocument } from './projection';

/** Spec 2.10: read-only, entered by the operator's import. */
export const ArticleResource = struct(
  {
    object: literal('knowledge_base_article'),
    id: str(),
    title: str(),
    content: str(),
    description: nullable(str()),
    tags: arrayOf(str()),
    category: nullable(str()),
    status: oneOf(ARTICLE_STATUSES),
    type: oneOf(ARTICLE_TYPES),
    is_public: bool(),
    ai_agent_enabled: bool(),
    indexed: bool(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  { title: 'knowledge_base_article' },
);
export type ArticleResource = t.TypeOf<typeof ArticleResource>;

export const toArticle = (d: ArticleDocument): ArticleResource => ({
  object: 'knowledge_base_article',
  id: d.id,
  title: d.title,
  content: d.content,
  description: d.description ?? null,
  tags: d.tags ?? [],
  category: d.category ?? null,
  status: d.status,
  type: d.type,
  is_public: d.is_public,
  ai_agent_enabled: d.ai_agent_enabled,
  indexed: d.indexed,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
