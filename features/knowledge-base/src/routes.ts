import { perApplication, Scoped } from '@support/application';
import { DEFAULT_LIMIT, idParams, linksTo, listBody, listOf, oneOf, pageParams, route, struct } from '@support/http';
import { ARTICLE_STATUSES, ARTICLE_TYPES } from './events';
import { ARTICLES, type ArticleDocument } from './projection';
import { ArticleResource, toArticle } from './resource';

/** The read model over an application's read store. */
const articlesOf = perApplication((app) => new Scoped(app.engines.reads.collection<ArticleDocument>(ARTICLES)));

/** Read-only (spec 4.7): articles enter by the operator's import. */
export const knowledgeBaseRoutes = [
  route({
    method: 'get',
    path: '/knowledge_base/articles',
    tag: 'knowledge_base',
    summary: 'List knowledge base articles, newest first',
    scope: 'knowledge_base:read',
    query: struct({}, { ...pageParams, status: oneOf(ARTICLE_STATUSES), type: oneOf(ARTICLE_TYPES) }),
    response: { status: 200, codec: listOf(ArticleResource, 'knowledge_base_article'), description: 'A page of articles' },
    links: linksTo(['GET /knowledge_base/articles/:id'], { id: '$response.body#/data/0/id' }),
    handler: async ({ app, principal, query }) => {
      const { limit, starting_after, ...filters } = query;
      const page = await articlesOf(app).find(principal.workspaceId, { where: filters, startingAfter: starting_after, limit: limit ?? DEFAULT_LIMIT });
      return { body: listBody(page.items.map(toArticle), page.hasMore) };
    },
  }),
  route({
    method: 'get',
    path: '/knowledge_base/articles/:id',
    tag: 'knowledge_base',
    summary: 'Get a knowledge base article',
    scope: 'knowledge_base:read',
    params: idParams('article'),
    response: { status: 200, codec: ArticleResource, description: 'The article' },
    handler: async ({ app, principal, params }) => {
      const doc = await articlesOf(app).require(principal.workspaceId, params.id, 'knowledge base article');
      return { body: toArticle(doc) };
    },
  }),
];
