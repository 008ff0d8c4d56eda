import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiDocument } from '@support/api';

const ROOT = path.resolve(__dirname, '../../..');
/** Where the generated client's types live (committed: a change to the API shows in review). */
export const CLIENT_SCHEMA = path.join(ROOT, 'packages/client/src/schema.ts');

/**
 * A schema that holds arrays of itself (JsonValue: any JSON) comes out as a property type that
 * names itself through `components`, which TypeScript refuses as circular: written instead as a
 * type alias of its own (which may recur), and the property is that alias.
 */
const recursiveAliases = (source: string, names: readonly string[]): string => {
  let out = source;
  const aliases: string[] = [];
  for (const name of names) {
    const re = new RegExp(`^( {8})${name}: ([\\s\\S]*?);\\n(?= {8}(?:/\\*\\*|[A-Za-z]+:)| {4}\\})`, 'm');
    const m = re.exec(out);
    if (!m) throw new Error(`schema ${name} not found in the generated types`);
    aliases.push(`export type ${name} = ${m[2].split(`components["schemas"]["${name}"]`).join(name)};`);
    out = out.replace(m[0], `${m[1]}${name}: ${name};\n`);
  }
  return `${out.trimEnd()}\n${aliases.join('\n')}\n`;
};

/** The TypeScript types openapi-typescript makes of the API's OpenAPI document, as it is served. */
export const generatedSchema = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-'));
  try {
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(apiDocument()));
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'schema.ts'], {
      cwd: dir,
      stdio: 'pipe',
    });
    return recursiveAliases(readFileSync(path.join(dir, 'schema.ts'), 'utf8'), ['JsonValue']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

// `npm run client:generate`: writes packages/client/src/schema.ts.
if (require.main === module) {
  writeFileSync(CLIENT_SCHEMA, generatedSchema());
  process.stdout.write(`wrote ${CLIENT_SCHEMA}\n`);
}
