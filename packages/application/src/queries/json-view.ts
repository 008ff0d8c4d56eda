import type { Doc } from '@support/readstore';

/** A stored document as a client sees it: its id, its workspace, and its resource's JSON. */
export interface Rendered {
  id: string;
  workspaceId: string;
  json: string;
}

/**
 * A resource's JSON rendered from a stored document's text and remembered by that text, so a
 * document read again unchanged (most reads) costs a map lookup instead of a parse, the
 * conversion to its resource and a stringify: most of a list page's cost. Keyed by the whole
 * text, an entry can never be stale. Two generations bound the memory: when the newer one is
 * full, the older one is dropped, so the entries used since then survive.
 */
export class JsonView<T extends Doc & { workspace_id: string }> {
  private current = new Map<string, Rendered>();
  private previous = new Map<string, Rendered>();

  constructor(
    private readonly render: (doc: T) => unknown,
    private readonly perGeneration = 2000,
  ) {}

  of(text: string): Rendered {
    let rendered = this.current.get(text);
    if (rendered) return rendered;
    rendered = this.previous.get(text);
    if (!rendered) {
      const doc = JSON.parse(text) as T;
      rendered = { id: doc.id, workspaceId: doc.workspace_id, json: JSON.stringify(this.render(doc)) };
    }
    if (this.current.size >= this.perGeneration) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(text, rendered);
    return rendered;
  }
}
