import * as t from 'io-ts';
import { arrayOf, bool, EXAMPLE_AT, EXAMPLE_ID, literal, nullable, oneOf, str, struct, timestamp } from '@support/http';
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
  {
    title: 'knowledge_base_article',
    example: {
      object: 'knowledge_base_article',
      id: EXAMPLE_ID.article,
      title: 'How refunds work',
      content: 'Refunds go back to the card you paid with. Once issued, they take 3 to 5 business days to appear on your statement.',
      description: 'Timing and method of refunds',
      tags: ['billing', 'refunds'],
      category: 'Billing',
      status: 'published',
      type: 'public_article',
      is_public: true,
      ai_agent_enabled: true,
      indexed: true,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
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
