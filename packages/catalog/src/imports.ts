import { type Application, Imports, perApplication } from '@support/application';
import { workspacesOf } from '@support/workspaces';

/** The operator's import run over the catalog's import kinds, into a workspace that must exist. */
export const importsOf = perApplication((app: Application) => new Imports(app.deps, workspacesOf(app).commands, app.catalog.imports));
