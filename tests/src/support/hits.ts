import type { ArticleForIndex, SearchHit } from '@support/agent';

/** A search hit on a passage of a public article of workspace ws_1, as the index returns it. */
export const hit = (articleId: string, n: number, title: string, heading: string | null, text: string, score: number): SearchHit => ({
  passage: {
    id: `${articleId}#${n}`,
    index: n,
    articleId,
    workspaceId: 'ws_1',
    title,
    heading,
    text,
    type: 'public_article',
    isPublic: true,
    customerFacing: true,
  },
  score,
});

/** A published public article of workspace ws_r, enabled for the agent, as the index takes it. */
export const indexedArticle = (id: string, title: string, content: string, extra: Partial<ArticleForIndex> = {}): ArticleForIndex => ({
  id,
  workspace_id: 'ws_r',
  title,
  content,
  status: 'published',
  ai_agent_enabled: true,
  type: 'public_article',
  is_public: true,
  ...extra,
});
