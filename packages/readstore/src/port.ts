/**
 * A read-model document: JSON with a string `id` unique in its collection. Its strings never
 * hold U+0000: every input refuses it (the API's codecs, the import), and a MongoDB-wire engine
 * on PostgreSQL (FerretDB) cannot store it: a write of one fails, and a projector sets the event aside.
 */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

export type Scalar = string | number | boolean | null;

export interface CollectionSpec {
  name: string;
  /** Equality lookups to index: each entry is a list of fields, used as a prefix before `id`. */
  indexes?: readonly (readonly string[])[];
  /**
   * The fields a `search` query matches, to index for it: a search over exactly these fields
   * then costs what it finds, not the collection's size (SQLite: a trigram full-text index,
   * for texts of three characters or more; MongoDB scans: it has no substring index).
   */
  search?: readonly string[];
}

export interface FindQuery {
  /** Every field must equal its value (null matches a missing or null field). */
  where?: Record<string, Scalar>;
  /** Case-insensitive substring match on any of `fields`. */
  search?: { fields: readonly string[]; text: string };
  /** Default: by id, newest first (ids are time-sortable). */
  orderBy?: { field: string; direction: 'asc' | 'desc' };
  /** Cursor: only documents after this id in id order (needs id ordering). */
  startingAfter?: string;
  /** Default: no limit. */
  limit?: number;
}

export interface FindResult<T> {
  items: T[];
  hasMore: boolean;
}

/** A stored document's JSON text with its id (so a cache can be keyed by the short id, not the text). */
export interface DocText {
  id: string;
  text: string;
}

export interface Collection<T extends Doc> {
  /** The name of its spec. */
  readonly name: string;
  get(id: string): Promise<T | null>;
  find(query: FindQuery): Promise<FindResult<T>>;
  /**
   * `get` and `find` as JSON text, for answers rendered from it without a parse per request
   * (SQLite hands back the text it stores; MongoDB's documents are serialized).
   */
  getText(id: string): Promise<string | null>;
  /**
   * How many documents match `where` and, when given, hold a number ≤ `atMost.value` in
   * `atMost.field`: a backlog's whole size for a gauge (a `find` with a limit stops counting).
   */
  count(where: Record<string, Scalar>, atMost?: { field: string; value: number }): Promise<number>;
  findText(query: FindQuery): Promise<FindResult<DocText>>;
  /** Inserts or replaces the whole document. */
  put(doc: T): Promise<void>;
  /** Inserts only when the id is free; false when a document with that id exists. */
  insert(doc: T): Promise<boolean>;
  /**
   * Sets only the given top-level fields, and only when the document exists and every `where`
   * field equals its value (null matches a missing or null field): a compare-and-set, so two
   * writers that own different fields never overwrite each other. True when it was updated.
   */
  update(id: string, set: Partial<T>, where?: Record<string, Scalar>): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /**
   * Puts and deletes many documents at once, for bulk work (projection rebuilds): one
   * transaction on SQLite, one unordered bulk write on MongoDB. Ids must not repeat.
   * `fresh`: ids among `puts` the caller believes absent (a rebuild's new documents), which an
   * adapter may insert instead of upserting (on FerretDB about 20× faster); a fresh id that
   * does exist is replaced all the same.
   */
  writeMany(puts: readonly T[], deletes: readonly string[], fresh?: ReadonlySet<string>): Promise<void>;
  /** Removes every document. */
  clear(): Promise<void>;
  /**
   * Removes every document for a bulk load (projection rebuilds): until `finish` resolves, the
   * store may leave the secondary and search indexes unmaintained and then build each once over
   * what was loaded (SQLite: one sorted build per index instead of an index write per document;
   * MongoDB keeps its indexes). Reads answer throughout, from what is loaded so far (another
   * process's searches may miss documents until `finish`). Should the process die before
   * `finish`, the indexes are built when the collection is next opened.
   */
  clearForLoad(): Promise<{ finish(): Promise<void> }>;
}

/** One collection's share of a `writeBatch`: as `writeMany`, by the collection's name. */
export interface CollectionWrites {
  collection: string;
  puts: readonly Doc[];
  deletes: readonly string[];
}

export interface ReadStore {
  collection<T extends Doc>(spec: CollectionSpec): Collection<T>;
  /**
   * The `writeMany` of several collections (each opened with `collection` first), then the
   * checkpoint if given: one transaction on SQLite, so a projector's batch commits once with
   * its checkpoint; on MongoDB a bulk write per collection, then the checkpoint.
   */
  writeBatch(writes: readonly CollectionWrites[], checkpoint?: { name: string; value: string }): Promise<void>;
  /** Consumer checkpoints (projector, relay…): opaque text owned by the consumer. */
  getCheckpoint(name: string): Promise<string | null>;
  setCheckpoint(name: string, value: string): Promise<void>;
  deleteCheckpoint(name: string): Promise<void>;
  /**
   * Shared counters (rate limits across processes): adds one hit to `key` in the fixed window
   * starting at `windowStart` (ms) and returns the window's new count, atomically, so hits
   * from any number of processes are each counted once. Counts of past windows are dropped.
   */
  incrementCounter(key: string, windowStart: number, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const NAME = /^[a-z][a-z0-9_]*$/;

/** Field and collection names reach SQL and Mongo paths, so only plain names pass. */
export const checkField = (field: string): string => {
  if (!FIELD.test(field)) throw new Error(`invalid field name: ${field}`);
  return field;
};
export const checkCollectionName = (name: string): string => {
  if (!NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return name;
};
