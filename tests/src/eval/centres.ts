import { enableAgent, importArticles } from '../support/agent';
import { removeDir, startService, tempDir } from '../support/service';
import { tenant, type Tenant } from '../support/workspace';
import { type Centre, centresOf, type Half } from './eval-set';

/**
 * The service as `npm start` runs it (the embedding model when fetched), with each help centre
 * of `half` imported into a workspace of its own and the agent enabled; `each` is called for
 * each centre in turn, then the service is stopped and its data removed. Returns the service's
 * start-up output (its "knowledge index ready" line says what ranks).
 */
export const withCentres = async (half: Half, env: Record<string, string>, each: (centre: Centre, ws: Tenant) => Promise<void>): Promise<string[]> => {
  const dir = tempDir('eval-');
  const svc = await startService(dir, { RATE_LIMIT_SCALE: '1000', ...env });
  const startUp = [...svc.output];
  try {
    for (const centre of centresOf(half)) {
      const ws = await tenant(svc.baseUrl, dir, { name: centre.name, workspaceArgs: ['--credits', '1000000'] });
      await importArticles(dir, ws, centre.articles);
      await enableAgent(ws);
      await each(centre, ws);
    }
    return startUp;
  } finally {
    await svc.stop();
    removeDir(dir);
  }
};
