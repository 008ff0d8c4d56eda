import { Collection, Doc, FindQuery, FindResult } from '@support/readstore';
import { failure } from '../errors';
import type { JsonView, Rendered } from './json-view';

const notFound = (what: string, id: string) => failure('not_found', `No such ${what}: '${id}'`);

/**
 * Read access to one workspace's documents. Every lookup is filtered by workspace, so a
 * document of another workspace reads as absent.
 */
export class Scoped<T extends Doc & { workspace_id: string }> {
  constructor(private readonly collection: Collection<T>) {}

  async get(workspaceId: string, id: string): Promise<T | null> {
    const doc = await this.collection.get(id);
    return doc && doc.workspace_id === workspaceId ? doc : null;
  }

  /** The document, or a not_found failure (404) naming what was asked for. */
  async require(workspaceId: string, id: string, what: string): Promise<T> {
    const doc = await this.get(workspaceId, id);
    if (!doc) throw notFound(what, id);
    return doc;
  }

  find(workspaceId: string, query: FindQuery): Promise<FindResult<T>> {
    return this.collection.find(this.inWorkspace(workspaceId, query));
  }

  /** `require`, answered as the resource's JSON through `view`. */
  async requireJson(workspaceId: string, id: string, what: string, view: JsonView<T>): Promise<string> {
    const text = await this.collection.getText(id);
    const rendered = text === null ? null : view.of(id, text);
    if (!rendered || rendered.workspaceId !== workspaceId) throw notFound(what, id);
    return rendered.json;
  }

  /** `find`, answered as the resources' JSON through `view`. */
  async findJson(workspaceId: string, query: FindQuery, view: JsonView<T>): Promise<FindResult<Rendered>> {
    const { items, hasMore } = await this.collection.findText(this.inWorkspace(workspaceId, query));
    return { items: items.map((d) => view.of(d.id, d.text)), hasMore };
  }

  private inWorkspace(workspaceId: string, query: FindQuery): FindQuery {
    return { ...query, where: { ...query.where, workspace_id: workspaceId } };
  }
}
