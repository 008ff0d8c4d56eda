import { Collection, CollectionWrites, Doc } from '@support/readstore';

const mapOf = <K, V>(maps: Map<Collection<Doc>, Map<K, V>>, c: Collection<Doc>): Map<K, V> => {
  let m = maps.get(c);
  if (!m) maps.set(c, (m = new Map<K, V>()));
  return m;
};

const split = (m: Map<string, Doc | null>): { puts: Doc[]; deletes: string[] } => {
  const puts: Doc[] = [];
  const deletes: string[] = [];
  for (const [id, doc] of m) {
    if (doc) puts.push(doc);
    else deletes.push(id);
  }
  return { puts, deletes };
};

// Each flush rewrites every document changed since the last one (a customer is touched by
// each of its messages): fewer flushes, less rewriting. A rebuild of 200k mixed events took
// 8.1 s instead of 11.7 s at 50k. The documents kept known after a flush are bounded by it
// too: the 1M-event log of the growth bench peaked at 0.86 GB RSS (0.69 without keeping them).
export const REBUILD_FLUSH_AT = 200_000;

/**
 * How the projector reads and writes documents: the documents changed and not yet written
 * (null: deleted) per collection, flushed per batch (live) or every REBUILD_FLUSH_AT documents
 * (rebuild), and those read from the store meanwhile (in a rebuild, also those kept known
 * after a flush).
 */
export class WriteBehind {
  private readonly pending = new Map<Collection<Doc>, Map<string, Doc | null>>();
  private readonly read = new Map<Collection<Doc>, Map<string, Doc | null>>();
  /**
   * In a rebuild (the collections start empty): the ids this cache has written.
   * Any other document is known to be absent, without a lookup; most events of a long log
   * create their document, and that lookup was a seventh of a rebuild's time.
   */
  private readonly written: Map<Collection<Doc>, Set<string>> | null;
  /**
   * A rebuild's collections whose documents events come back to (an event changed one that
   * existed: customers, conversations; not messages, each made once). Their documents stay
   * known after a flush, up to `rebuildKeepAtMost` in all, instead of being read again (at 1M
   * events those reads were 6.5% of the rebuild).
   */
  private readonly revisited = new Set<Collection<Doc>>();
  size = 0;

  /** With `rebuildKeepAtMost`: a rebuild's (its collections start empty), keeping at most that many documents known after a flush. */
  constructor(private readonly rebuildKeepAtMost?: number) {
    this.written = rebuildKeepAtMost !== undefined ? new Map() : null;
  }

  /** The document as this cache knows it (null: absent), or undefined: to be read with `load`. */
  peek(c: Collection<Doc>, id: string): Doc | null | undefined {
    const changed = this.pending.get(c)?.get(id);
    if (changed !== undefined) return changed;
    const read = this.read.get(c)?.get(id);
    if (read !== undefined) return read;
    if (this.written && !this.written.get(c)?.has(id)) return null;
    return undefined;
  }

  async load(c: Collection<Doc>, id: string): Promise<void> {
    const doc = await c.get(id);
    mapOf(this.read, c).set(id, doc);
  }

  /** `existed`: the event changed a document that was there (rather than making it). */
  put(c: Collection<Doc>, doc: Doc, existed: boolean): void {
    if (existed && this.written) this.revisited.add(c);
    const m = mapOf(this.pending, c);
    if (!m.has(doc.id)) this.size += 1;
    m.set(doc.id, doc);
  }

  delete(c: Collection<Doc>, id: string): void {
    const m = mapOf(this.pending, c);
    if (!m.has(id)) this.size += 1;
    m.set(id, null);
  }

  /** The documents changed since the last flush or take, per collection, and forgets them (live batches: one writeBatch). */
  take(): CollectionWrites[] {
    const writes = [...this.pending].map(([c, m]) => ({ collection: c.name, ...split(m) }));
    this.pending.clear();
    this.read.clear();
    this.size = 0;
    return writes;
  }

  /** Writes the changed documents, a writeMany per collection (a rebuild's bulk writes). */
  async flush(): Promise<void> {
    for (const [c, m] of this.pending) {
      const { puts, deletes } = split(m);
      let ids = this.written?.get(c);
      if (this.written && !ids) this.written.set(c, (ids = new Set()));
      // A rebuild's collections start empty: what it has not written yet is new there.
      const fresh = ids ? new Set(puts.filter((doc) => !ids.has(doc.id)).map((doc) => doc.id)) : undefined;
      await c.writeMany(puts, deletes, fresh);
      if (ids) {
        for (const doc of puts) ids.add(doc.id);
        for (const id of deletes) ids.delete(id);
        if (this.revisited.has(c)) {
          const known = mapOf(this.read, c);
          for (const [id, doc] of m) known.set(id, doc);
        }
      }
    }
    this.pending.clear();
    let known = 0;
    for (const m of this.read.values()) known += m.size;
    if (this.rebuildKeepAtMost === undefined || known > this.rebuildKeepAtMost) this.read.clear();
    this.size = 0;
  }
}
