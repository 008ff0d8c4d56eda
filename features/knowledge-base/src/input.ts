import * as t from 'io-ts';
import { ID_PREFIX, input } from '@support/domain';
import { ARTICLE_STATUSES, ARTICLE_TYPES } from './events';

const { among, closed, exactly, flag, isoTime, orNull, prefixedId, text, texts } = input;

/** A knowledge base article as an import file gives it (spec 2.10); `title` and `content` are required. */
export const ArticleInput = closed(
  'knowledge_base_article',
  { title: text(), content: text({ blank: true }) },
  {
    id: prefixedId(ID_PREFIX.article),
    object: exactly('knowledge_base_article'),
    description: orNull(text({ blank: true })),
    tags: texts({ max: 100 }),
    category: orNull(text({ blank: true })),
    status: among(ARTICLE_STATUSES),
    type: among(ARTICLE_TYPES),
    is_public: flag(),
    ai_agent_enabled: flag(),
    indexed: flag(),
    created_at: isoTime(),
    updated_at: isoTime(),
  },
);
export type ArticleInput = t.TypeOf<typeof ArticleInput>;
