// `npm run test:one -- tests/src/e2e/errors.test.ts [more files] [tap options]`: one test file
// (or a few) without the full build `npm test` starts with. TypeScript's build is incremental:
// after a change to a test, or to a package, it compiles only what changed (a few seconds);
// then tap runs the compiled files (tests/build mirrors tests/src).
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2).map((a) => a.replace(/^(?:\.\/)?tests\/src\/(.*)\.ts$/, 'tests/build/$1.js'));
if (!args.some((a) => a.startsWith('tests/build/'))) {
  process.stderr.write('usage: npm run test:one -- tests/src/<path>.test.ts [more files] [tap options]\n');
  process.exit(2);
}
const run = (script, argv) =>
  spawnSync(process.execPath, [fileURLToPath(new URL(script, new URL('../node_modules/', import.meta.url))), ...argv], { cwd: root, stdio: 'inherit' })
    .status ?? 1;
const built = run('typescript/bin/tsc', ['-b']);
if (built !== 0) process.exit(built);
process.exit(run('tap/dist/esm/run.mjs', args));
