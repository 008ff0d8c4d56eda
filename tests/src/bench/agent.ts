import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LabelledQuestion, retrievalQuality } from '@support/agent';
import { nodeJson } from './children';

/**
 * The agent's part of `npm run bench`: a knowledge base for the throughput runs, and the
 * retrieval-quality figures measured through the public API (`/agent/search` and
 * `/agent/messages`) on the labelled fixture.
 */
export const FIXTURE = path.resolve(__dirname, '../../fixtures/knowledge');

interface FixtureArticle { id: string; title: string; content: string; status?: string; ai_agent_enabled?: boolean }
export const fixtureArticles = (): FixtureArticle[] => JSON.parse(readFileSync(path.join(FIXTURE, 'articles.json'), 'utf8'));
export const fixtureQuestions = (): LabelledQuestion[] => JSON.parse(readFileSync(path.join(FIXTURE, 'questions.json'), 'utf8'));

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const articleId = (n: number) => `kb_01K${Array.from({ length: 23 }, (_, i) => CROCKFORD[Math.floor(n / 32 ** (22 - i)) % 32]).join('')}`;

/** `count` published articles: the fixture's, then copies of them under new ids and titles. */
export const benchArticles = (count: number) => {
  const base = fixtureArticles().filter((a) => (a.status ?? 'published') === 'published' && a.ai_agent_enabled !== false);
  return Array.from({ length: count }, (_, i) => {
    const a = base[i % base.length];
    const copy = Math.floor(i / base.length);
    return { ...a, id: copy === 0 ? a.id : articleId(i), title: copy === 0 ? a.title : `${a.title} (${copy + 1})` };
  });
};

/** Imports articles with the admin CLI; resolves once the running service has indexed them all. */
export const importArticles = async (admin: string, env: NodeJS.ProcessEnv, dir: string, workspaceId: string, articles: object[], indexed: () => Promise<number>) => {
  const file = path.join(dir, `articles-${workspaceId}.json`);
  writeFileSync(file, JSON.stringify({ knowledge_base_articles: articles }));
  await nodeJson(admin, ['import', '--workspace', workspaceId, '--file', file, '--json'], env);
  const deadline = Date.now() + 60_000;
  const want = articles.filter((a: any) => (a.status ?? 'published') === 'published' && a.ai_agent_enabled !== false).length;
  while ((await indexed()) < want) {
    if (Date.now() > deadline) throw new Error('the knowledge index did not catch up within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
};

type Post = (path: string, body: unknown) => Promise<{ status: number; body: any }>;

/** recall@1, recall@5 and MRR of /agent/search, and the share of turns citing the right article. */
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
    if (q.article_id === null) { if (sources.length === 0) offTopicDeclined++; continue; }
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
