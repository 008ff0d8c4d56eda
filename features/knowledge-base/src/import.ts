import { Aggregate, importedRecordKind } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { ArticleCommand, articleDecider, ArticleState } from './decider';
import { ArticleEvent } from './events';
import { ArticleInput } from './input';

export const articleStream = (id: string) => `knowledge_base_article-${id}`;
export const articleAggregate: Aggregate<ArticleCommand, ArticleEvent, ArticleState> = { decider: articleDecider, codec: ArticleEvent };

/** Articles enter only by the operator's import, under `knowledge_base_articles`. */
export const ARTICLE_IMPORT = importedRecordKind<ArticleInput, ArticleEvent, ArticleState>({
  key: 'knowledge_base_articles',
  input: ArticleInput,
  prefix: ID_PREFIX.article,
  aggregate: articleAggregate,
  stream: articleStream,
});
