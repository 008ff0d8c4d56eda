import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../support/module-graph';

/**
 * A supported Node: 24 LTS in the image and in CI, 22 the oldest `engines` allows. No Docker
 * engine runs on the machines CI runs on, so the image is checked as text: its stages, its user,
 * its health check and what it carries.
 */
const stagesOf = (dockerfile: string) =>
  dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .reduce<string[][]>((stages, line) => (line.startsWith('FROM ') ? [...stages, [line]] : (stages.at(-1)?.push(line), stages)), []);

t.test('the image: built in one stage, run from another on Node 24 as a user who is not root, healthy when ready', async (t) => {
  const stages = stagesOf(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  t.equal(stages.length, 2, 'a build stage and a runtime stage');
  const [build, runtime] = stages;
  t.match(build[0], /^FROM node:24-\S+ AS build$/);
  t.ok(
    build.some((l) => /npm prune --omit=dev/.test(l)),
    'dev dependencies pruned before the copy',
  );
  t.match(runtime[0], /^FROM node:24-\S*slim$/, 'runtime on Node 24, slim');
  const user = runtime.find((l) => l.startsWith('USER '));
  t.ok(user && !/^USER (root|0)\b/.test(user), `runs as ${user}`);
  t.ok(runtime.findIndex((l) => l.startsWith('USER ')) < runtime.findIndex((l) => l.startsWith('CMD ')), 'the user is set before the command');
  t.match(runtime.find((l) => l.startsWith('HEALTHCHECK ')) ?? '', /\/readyz/, 'HEALTHCHECK on /readyz');
  const copies = runtime.filter((l) => l.startsWith('COPY '));
  t.ok(
    copies.every((l) => l.startsWith('COPY --from=build ')),
    'only the build stage’s output is copied',
  );
  t.strictSame(
    copies.filter((l) => /\btests\b|\s\.\s/.test(l)),
    [],
    'no tests and no whole-tree copy',
  );
  // Every workspace folder the product runs from (packages/*, features/*, services/*) is in the image.
  const groups = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces
    .map((w) => w.replace(/\/\*$/, ''))
    .filter((g) => g !== 'tests');
  t.strictSame(
    groups.filter((g) => !copies.includes(`COPY --from=build /app/${g} ./${g}`)),
    [],
    'every workspace folder copied',
  );
});

t.test('engines: Node 22 or newer; CI installs Node 24 from the npm registry', async (t) => {
  t.strictSame((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: unknown }).engines, { node: '>=22' });
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  t.match(ci, /NODE_MAJOR=\$\{NODE_MAJOR:-24\}/);
  t.match(ci, /npm install .*"node-linux-\$arch@\$NODE_MAJOR"/);
  t.equal(Number(process.versions.node.split('.')[0]) >= 22, true, `this run's Node (${process.versions.node}) is a supported one`);
});
