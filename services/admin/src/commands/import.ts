import { readFile } from 'node:fs/promises';
import { importsOf } from '@support/catalog';
import { Application, failure } from '@support/application';
import { type AdminRun, flags, Output, required } from '../cli';

const PROGRESS_EVERY_MS = 1000;

const readJson = async (path: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw failure('validation', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw failure('validation', `${path} is not valid JSON: ${(err as Error).message}`);
  }
};

/**
 * `import --workspace ID --file PATH`: tickets, knowledge base articles, canned responses and
 * channels, appended as events like any write. The whole file is checked before anything is
 * written. Prints per kind given: count and ids, in file order.
 */
export const importCommand = async (app: Application, out: Output, args: string[], run: AdminRun) => {
  const v = flags(args, { workspace: 'string', file: 'string' });
  const workspaceId = required(v, 'workspace');
  const file = await readJson(required(v, 'file'));
  let last = Date.now();
  const outcome = await importsOf(app).run({ ...run, workspaceId }, file, ({ done, total }) => {
    if (Date.now() - last >= PROGRESS_EVERY_MS) {
      out.progress(`${done}/${total} items imported…`);
      last = Date.now();
    }
  });
  out.progress(`imported: ${outcome.created} created, ${outcome.updated} updated, ${outcome.unchanged} unchanged`);
  out.result(outcome.report);
};
