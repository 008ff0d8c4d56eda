import t from 'tap';
import { ArticleCommand, articleDecider, ArticleEvent, ArticleInput } from '@support/knowledge-base';
import { spec } from '../../support/decider-spec';

const given = spec(articleDecider);
const AT = '2026-03-01T10:00:00.000Z';
const importing = (input: Record<string, unknown>, extra: Partial<Extract<ArticleCommand, { type: 'import' }>> = {}): ArticleCommand => ({
  type: 'import',
  id: 'kb_1',
  workspace_id: 'ws_1',
  at: AT,
  input: input as ArticleInput,
  ...extra,
});
const created: ArticleEvent = {
  type: 'knowledge_base_article.created',
  data: {
    id: 'kb_1',
    workspace_id: 'ws_1',
    title: 'Reset a password',
    content: 'Click "forgot".',
    description: null,
    tags: [],
    category: null,
    status: 'published',
    type: 'public_article',
    is_public: true,
    ai_agent_enabled: true,
    indexed: false,
    created_at: AT,
  },
};

t.test('a new article gets the defaults', async (t) =>
  given([])
    .when(importing({ title: 'Reset a password', content: 'Click "forgot".' }))
    .then(t, [created]),
);

t.test('an internal article is not public unless said so; given fields are kept', async (t) =>
  given([])
    .when(
      importing({
        title: 'Reset a password',
        content: 'Click "forgot".',
        type: 'internal_article',
        status: 'draft',
        category: 'Accounts',
        created_at: '2025-01-01T00:00:00Z',
      }),
    )
    .then(t, [
      {
        ...created,
        data: { ...created.data, type: 'internal_article', is_public: false, status: 'draft', category: 'Accounts', created_at: '2025-01-01T00:00:00.000Z' },
      },
    ]),
);

t.test('status and type outside the vocabulary are refused', async (t) => {
  given([])
    .when(importing({ title: 'x', content: '', status: 'archived' }))
    .thenFails(t, 'validation', /status must be one of draft, published/);
  given([])
    .when(importing({ title: 'x', content: '', type: 'faq' }))
    .thenFails(t, 'validation', /type must be one of public_article, internal_article/);
  given([])
    .when(importing({ title: 'x' }))
    .thenFails(t, 'validation', /content is required/);
});

t.test('an update records only the changed fields', async (t) => {
  given([created])
    .when(importing({ title: 'Reset a password', content: 'Use the link.', status: 'published', ai_agent_enabled: false }))
    .then(t, [{ type: 'knowledge_base_article.updated', data: { id: 'kb_1', changes: { content: 'Use the link.', ai_agent_enabled: false } } }]);
  given([created])
    .when(importing({ title: 'Reset a password', content: 'Click "forgot".' }))
    .then(t, []);
  given([created])
    .when(importing({ title: 'x', content: 'y' }, { workspace_id: 'ws_2' }))
    .thenFails(t, 'conflict');
});

t.test('the knowledge index records an article as indexed once, and as dropped when it stops being searchable', async (t) => {
  given([created])
    .when({ type: 'mark_indexed', indexed: true })
    .then(t, [{ type: 'knowledge_base_article.indexed', data: { id: 'kb_1', indexed: true } }]);
  const indexed: ArticleEvent = { type: 'knowledge_base_article.indexed', data: { id: 'kb_1', indexed: true } };
  given([created, indexed]).when({ type: 'mark_indexed', indexed: true }).then(t, [], 'already indexed: nothing new');
  given([created, indexed])
    .when({ type: 'mark_indexed', indexed: false })
    .then(t, [{ type: 'knowledge_base_article.indexed', data: { id: 'kb_1', indexed: false } }]);
  given([]).when({ type: 'mark_indexed', indexed: true }).thenFails(t, 'not_found');
});
