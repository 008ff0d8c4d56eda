import t from 'tap';
import { importedWorkspaces, runtimeClosure, workspaces } from '../support/module-graph';

/**
 * The dependency graph is declared, and the code keeps to it: each workspace's package.json
 * and tsconfig references name exactly the workspaces it imports, nothing imports a layer
 * above its own, and each process loads only what it runs.
 */

/** The layers, lowest first: a workspace imports only workspaces of lower layers. */
const LAYERS: readonly (readonly string[])[] = [
  // The generated API client imports nothing of ours.
  ['kernel', 'domain', 'client'],
  ['eventstore', 'readstore', 'bus'],
  ['projections', 'webhooks'],
  ['application'],
  ['http'],
  // One folder per feature (features/*), each above the cores it builds on.
  ['workspaces', 'customers', 'tags', 'tickets', 'knowledge-base', 'canned-responses', 'webhook-endpoints'],
  // A conversation starts with its customer (made or matched); a channel counts its conversations.
  ['conversations'],
  ['channels'],
  // The agent indexes the knowledge base's articles; the HTTP core knows nothing of it.
  ['agent'],
  // The features put together: every event and read model.
  ['catalog'],
  ['api', 'projector', 'relay', 'dispatcher', 'sla-monitor', 'admin'],
  // The embedded default runs every process in one.
  ['standalone'],
];
const layerOf = (name: string): number => {
  const layer = LAYERS.findIndex((l) => l.includes(name.replace('@support/', '')));
  if (layer < 0) throw new Error(`${name} is in no layer: add it to LAYERS`);
  return layer;
};

const all = workspaces();
const dirOf = new Map(all.map((w) => [w.name, w.dir]));

t.test('every workspace is in a layer', async (t) => {
  for (const w of all) t.doesNotThrow(() => layerOf(w.name), w.name);
});

for (const w of all) {
  t.test(`${w.name}: its package.json and tsconfig name exactly what it imports, all below it`, async (t) => {
    const imported = importedWorkspaces(w);
    const declared = Object.keys(w.packageJson.dependencies ?? {})
      .filter((d) => d.startsWith('@support/'))
      .sort();
    t.strictSame(declared, imported, 'package.json dependencies');
    t.strictSame([...w.references].sort(), imported.map((n) => dirOf.get(n)).sort(), 'tsconfig references');
    t.strictSame(
      imported.filter((n) => layerOf(n) >= layerOf(w.name)),
      [],
      'imports of its own layer or above',
    );
  });
}

/**
 * What each process must not load: the agent's runtime (its index, model, responders, turns, LLM
 * client and MCP server; its configuration's events and read model, `@support/agent/manifest`,
 * are every process's) and the API's rate limits.
 */
const agentRuntime = (file: string) => file.startsWith('features/agent/') && !/^features\/agent\/dist\/(manifest\.js|config\/)/.test(file);
const notLoaded = (file: string) =>
  agentRuntime(file) || file.startsWith('@modelcontextprotocol/') || /\/(rate-?limit|llm)[^/]*(\/|\.js$)/.test(file) || file.startsWith('services/api/');

for (const role of ['relay', 'dispatcher', 'sla-monitor', 'projector']) {
  t.test(`the ${role} process loads no agent, LLM, MCP or rate-limit code`, async (t) => {
    const loaded = runtimeClosure(`services/${role}/dist/main.js`);
    t.ok(loaded.size > 10, `${loaded.size} modules`);
    t.strictSame([...loaded].filter(notLoaded), []);
  });
}

t.test('the API process does load the agent (the check above can see it)', async (t) => {
  const loaded = runtimeClosure('services/api/dist/main.js');
  t.ok([...loaded].some(agentRuntime));
  t.ok([...loaded].some((f) => /rate-?limit/.test(f)));
});
