import type { Feature } from '@support/application';
import { ArticleEvent } from './events';
import { ARTICLE_IMPORT } from './import';
import { articlesProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events, read models and import kinds. */
export const knowledgeBaseFeature: Feature = { events: ArticleEvent, projections: [articlesProjection], imports: [ARTICLE_IMPORT] };
