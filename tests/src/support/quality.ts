import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LabelledQuestion, retrievalQuality } from '@support/agent';

/** The labelled knowledge fixture: articles of one product and questions naming the article that answers each. */
export const FIXTURE = path.resolve(__dirname, '../../fixtures/knowledge');

export interface FixtureArticle {
  id: string;
  title: string;
  content: string;
  status?: string;
  ai_agent_enabled?: boolean;
}
export const fixtureArticles = (): FixtureArticle[] => JSON.parse(readFileSync(path.join(FIXTURE, 'articles.json'), 'utf8'));
export const fixtureQuestions = (): LabelledQuestion[] => JSON.parse(readFileSync(path.join(FIXTURE, 'questions.json'), 'utf8'));

type Post = (path: string, body: unknown) => Promise<{ status: number; body: any }>;

/**
 * Retrieval quality through the public API: recall@1, recall@5 and MRR of /agent/search, the
 * share of /agent/messages turns citing the right article, and of off-topic turns citing none.
 */
export const measureQuality = async (post: Post, questions: LabelledQuestion[]) => {
  const search = await retrievalQuality(questions, async (q) => {
    const r = await post('/agent/search', { query: q, top_k: 10 });
    if (r.status !== 200) throw new Error(`POST /agent/search answered ${r.status}`);
    return { articleIds: (r.body.data as { knowledge_base_id: string }[]).map((d) => d.knowledge_base_id) };
  });
  const titles = new Map(fixtureArticles().map((a) => [a.id, a.title]));
  let cited = 0;
  let answered = 0;
  let offTopicDeclined = 0;
  const labelled = questions.filter((q) => q.article_id !== null);
  const offTopic = questions.filter((q) => q.article_id === null);
  for (const q of questions) {
    const r = await post('/agent/messages', { message: q.question });
    if (r.status !== 200) throw new Error(`POST /agent/messages answered ${r.status}: ${JSON.stringify(r.body)}`);
    const sources = r.body.sources as string[];
    if (q.article_id === null) {
      if (sources.length === 0) offTopicDeclined++;
      continue;
    }
    if (sources.length) answered++;
    if (sources.includes(titles.get(q.article_id)!)) cited++;
  }
  return {
    ...search,
    turns_citing_right_article: labelled.length ? cited / labelled.length : 0,
    turns_grounded: labelled.length ? answered / labelled.length : 0,
    off_topic_declined: offTopic.length ? offTopicDeclined / offTopic.length : 0,
    off_topic_questions: offTopic.length,
  };
};
