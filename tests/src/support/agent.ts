import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminJson } from './service';
import { until } from './wait';
import { Tenant, tenant } from './workspace';

/** A knowledge base article id: `kb_` + a well-formed ULID body. */
export const kbId = (n: number) => `kb_01J${String(n).padStart(23, '0')}`;

let files = 0;
/** Imports articles with the admin CLI and waits until the running service has indexed them. */
export const importArticles = async (dir: string, ws: Tenant, articles: object[]): Promise<void> => {
  const path = join(dir, `articles-${process.pid}-${++files}.json`);
  writeFileSync(path, JSON.stringify({ knowledge_base_articles: articles }));
  await adminJson(dir, 'import', '--workspace', ws.workspaceId, '--file', path);
  const searchable = articles.filter((a: any) => (a.status ?? 'published') === 'published' && a.ai_agent_enabled !== false).map((a: any) => a.id as string);
  await until(
    async () => {
      const r = await ws.api.get('/knowledge_base/articles?limit=100');
      const indexed = new Set((r.body?.data ?? []).filter((a: { indexed: boolean }) => a.indexed).map((a: { id: string }) => a.id));
      return searchable.every((id) => indexed.has(id));
    },
    10_000,
    50,
  );
};

/** Turns the agent on for the API channel, with any other settings given. */
export const enableAgent = async (ws: Tenant, extra: object = {}) => {
  const r = await ws.api.patch('/agent', { is_enabled: true, deployed_channels: { api: true }, ...extra });
  if (r.status !== 200) throw new Error(`PATCH /agent failed: ${r.status} ${r.text}`);
  return r.body;
};

/** A workspace of its own on the test's service, holding `articles`, its agent enabled with `settings`. */
export const helpCentre = async (e2e: { svc: { baseUrl: string }; dir: string }, name: string, articles: object[], settings: object): Promise<Tenant> => {
  const ws = await tenant(e2e.svc.baseUrl, e2e.dir, { name, workspaceArgs: ['--credits', '100'] });
  await importArticles(e2e.dir, ws, articles);
  await enableAgent(ws, settings);
  return ws;
};
