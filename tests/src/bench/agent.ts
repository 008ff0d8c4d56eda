import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixtureArticles } from '../support/quality';
import { request } from './api';
import { nodeJson } from './children';

/**
 * The agent's part of `npm run bench`: a knowledge base for the throughput runs (the quality
 * figures come from tests/src/support/quality.ts).
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const articleId = (n: number) => `kb_01K${Array.from({ length: 23 }, (_, i) => CROCKFORD[Math.floor(n / 32 ** (22 - i)) % 32]).join('')}`;

/** `count` published articles: copies of the fixture's under ids of their own (the quality run imports the fixture's ids). */
export const benchArticles = (count: number) => {
  const base = fixtureArticles().filter((a) => (a.status ?? 'published') === 'published' && a.ai_agent_enabled !== false);
  return Array.from({ length: count }, (_, i) => {
    const a = base[i % base.length];
    const copy = Math.floor(i / base.length);
    return { ...a, id: articleId(i), title: copy === 0 ? a.title : `${a.title} (${copy + 1})` };
  });
};

/** Imports articles with the admin CLI; resolves once the running service has indexed them all. */
export const importArticles = async (
  admin: string,
  env: NodeJS.ProcessEnv,
  dir: string,
  workspaceId: string,
  articles: object[],
  indexed: () => Promise<number>,
) => {
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

/** How many of the workspace's articles the running service has indexed (one search first: the index is live). */
export const indexedArticles = async (base: string, key: string): Promise<number> => {
  const r = await request(`${base}/agent/search`, key, { query: 'zzzz' });
  if (r.status !== 200) throw new Error(`POST /agent/search answered ${r.status}`);
  let n = 0;
  for (let after: string | null = null, more = true; more;) {
    const page = await request(`${base}/knowledge_base/articles?limit=100${after ? `&starting_after=${after}` : ''}`, key);
    const data = page.body.data as { id: string; indexed: boolean }[];
    n += data.filter((a) => a.indexed).length;
    more = page.body.has_more as boolean;
    after = data.length ? data[data.length - 1].id : null;
  }
  return n;
};

/**
 * Every question once, ten at a time, before anything is measured: the articles' answer
 * sentences are embedded in the background after the import, and the questions' own embeddings
 * are made on first sight; what is measured next is the steady state, not that start-up.
 */
export const askEachOnce = async (base: string, key: string, questions: readonly string[]): Promise<void> => {
  for (let i = 0; i < questions.length; i += 10) {
    await Promise.all(questions.slice(i, i + 10).map((message) => request(`${base}/agent/messages`, key, { message })));
  }
};
