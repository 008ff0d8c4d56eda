import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { ROOT, workspaces } from '../support/module-graph';

/** Small files named for what they hold: no hand-written source file of a workspace over this many lines. */
const MAX_LINES = 300;
/** Written by a tool, not by hand (npm run client:generate). */
const GENERATED = new Set(['packages/client/src/schema.ts']);

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );

t.test(`no source file of a workspace is over ${MAX_LINES} lines`, async (t) => {
  const files = workspaces().flatMap((w) => sources(join(ROOT, w.dir, 'src')));
  t.ok(files.length > 100, `${files.length} files`);
  const long = files
    .map((f) => relative(ROOT, f))
    .filter((f) => !GENERATED.has(f))
    .map((f) => [f, readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  t.strictSame(long, []);
});
