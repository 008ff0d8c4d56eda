import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository's root (tests/build/support → three levels up). */
export const ROOT = resolve(__dirname, '../../..');

export interface Workspace {
  /** `@support/…` */
  name: string;
  /** `packages/domain`, `services/relay`… */
  dir: string;
  packageJson: { dependencies?: Record<string, string>; exports?: Record<string, { default?: string }> };
  /** The workspaces its tsconfig references, by directory. */
  references: string[];
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** Every workspace package of the product (packages/*, features/* and services/*; the tests are not one). */
export const workspaces = (): Workspace[] =>
  ['packages', 'features', 'services'].flatMap((group) =>
    readdirSync(join(ROOT, group))
      .filter((d) => existsSync(join(ROOT, group, d, 'package.json')))
      .map((d) => {
        const dir = `${group}/${d}`;
        const tsconfig = readJson(join(ROOT, dir, 'tsconfig.json')) as { references?: { path: string }[] };
        const packageJson = readJson(join(ROOT, dir, 'package.json')) as Workspace['packageJson'] & { name: string };
        return {
          name: packageJson.name,
          dir,
          packageJson,
          references: (tsconfig.references ?? []).map((r) => relative(ROOT, resolve(ROOT, dir, r.path))),
        };
      }),
  );

const filesUnder = (dir: string, ext: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path, ext);
    return path.endsWith(ext) && !path.endsWith('.d.ts') ? [path] : [];
  });

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The module specifiers a source file names (type-only imports included: the compiler needs them). */
export const specifiersIn = (text: string): string[] => [...text.matchAll(SPECIFIER)].map((m) => m[1]);

/** The workspace a specifier names (`@support/eventstore/sqlite` → `@support/eventstore`), or null. */
export const workspaceOf = (specifier: string): string | null => /^(@support\/[^/]+)/.exec(specifier)?.[1] ?? null;

/** The workspaces a workspace's sources import (types included), other than itself. */
export const importedWorkspaces = (w: Workspace): string[] =>
  [
    ...new Set(
      filesUnder(join(ROOT, w.dir, 'src'), '.ts')
        .flatMap((f) => specifiersIn(readFileSync(f, 'utf8')))
        .map(workspaceOf)
        .filter((n): n is string => n !== null && n !== w.name),
    ),
  ].sort();

/** The compiled file a `require` from `from` loads, or the bare package name when it is outside the product. */
const resolveRequire = (from: string, specifier: string, byName: Map<string, Workspace>): string => {
  if (specifier.startsWith('.')) {
    const base = resolve(dirname(from), specifier);
    for (const candidate of [base, `${base}.js`, join(base, 'index.js')]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    throw new Error(`${relative(ROOT, from)}: cannot resolve ${specifier}`);
  }
  const name = workspaceOf(specifier);
  const w = name && byName.get(name);
  if (!w) return specifier;
  const sub = `.${specifier.slice(name.length)}`;
  const target = sub === '.' ? (w.packageJson.exports?.['.']?.default ?? './dist/index.js') : w.packageJson.exports?.[sub]?.default;
  if (!target) throw new Error(`${relative(ROOT, from)}: ${specifier} is not exported by ${name}`);
  return resolve(ROOT, w.dir, target);
};

/**
 * What a process loads at run time: every compiled module reachable by `require` from its
 * main (type-only imports are gone from the compiled code), as paths relative to the root,
 * plus the outside packages it loads by name. Lazy requires count: they may run.
 */
export const runtimeClosure = (main: string): Set<string> => {
  const byName = new Map(workspaces().map((w) => [w.name, w]));
  const seen = new Set<string>();
  const queue = [resolve(ROOT, main)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue;
    const requires = [...readFileSync(file, 'utf8').matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    for (const r of requires) if (!r.startsWith('node:')) queue.push(resolveRequire(file, r, byName));
  }
  return new Set([...seen].map((f) => (f.startsWith('/') ? relative(ROOT, f) : f)));
};
