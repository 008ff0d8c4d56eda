import type { Doc } from '@support/readstore';

/** A stored document as a client sees it: its id, its workspace, and its resource's JSON. */
export interface Rendered {
  id: string;
  workspaceId: string;
  json: string;
}

/**
 * A resource's JSON rendered from a stored document's text and remembered with that text, so a
 * document read again unchanged (most reads) costs a lookup and a comparison instead of a
 * parse, the conversion to its resource and a stringify: most of a list page's cost.
 *
 * Entries are found by the document's id and used only when the text read now is the one they
 * were rendered from, so an entry can never be stale. Keyed by the id, not the text: a text
 * read from the store is a new string whose hash is computed over all its characters (a page
 * of 20 customers: 14 µs of lookups in a loop keyed by text, 1.6 µs by id; docs/performance.md).
 * Two generations bound the memory: when the newer one is full, the older one is dropped, so
 * the entries used since then survive.
 */
export class JsonView<T extends Doc & { workspace_id: string }> {
  private current = new Map<string, { text: string; rendered: Rendered }>();
  private previous = new Map<string, { text: string; rendered: Rendered }>();

  constructor(
    private readonly render: (doc: T) => unknown,
    private readonly perGeneration = 2000,
  ) {}

  /** `text`: the stored document whose id is `id`. */
  of(id: string, text: string): Rendered {
    const entry = this.current.get(id);
    if (entry !== undefined && entry.text === text) return entry.rendered;
    const older = this.previous.get(id);
    let rendered = older !== undefined && older.text === text ? older.rendered : undefined;
    if (rendered === undefined) {
      const doc = JSON.parse(text) as T;
      rendered = { id: doc.id, workspaceId: doc.workspace_id, json: JSON.stringify(this.render(doc)) };
    }
    if (this.current.size >= this.perGeneration) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(id, { text, rendered });
    return rendered;
  }
}
