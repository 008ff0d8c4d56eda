import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT, workspaces } from '../support/module-graph';

/** Open source under Apache-2.0: the licence text at the root, and every package says so. */
t.test('LICENSE holds the Apache License 2.0, NOTICE names the project', async (t) => {
  const licence = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
  t.match(licence, /^\s*Apache License\s+Version 2\.0, January 2004/);
  t.match(licence, /END OF TERMS AND CONDITIONS/);
  t.match(readFileSync(join(ROOT, 'NOTICE'), 'utf8'), /Apache License, Version 2\.0/);
});

t.test('every package.json declares Apache-2.0', async (t) => {
  const files = ['package.json', 'tests/package.json', ...workspaces().map((w) => `${w.dir}/package.json`)];
  const licences = Object.fromEntries(files.map((f) => [f, (JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as { license?: string }).license]));
  t.strictSame(licences, Object.fromEntries(files.map((f) => [f, 'Apache-2.0'])));
});
