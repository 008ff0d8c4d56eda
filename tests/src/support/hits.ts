import type { SearchHit } from '@support/agent';

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
