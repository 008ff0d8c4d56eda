import { checkField, FindQuery, Scalar } from './port';
import { searchTables } from './search-index';

export const path = (field: string) => `json_extract(doc, '$.${checkField(field)}')`;
export const bind = (v: Scalar) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
export const likeEscape = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A text holding U+0000: FTS5 reads a query, and LIKE its pattern, as C text up to it (FTS5 then
 * fails, "unterminated string", and LIKE matches more). instr compares every byte.
 */
export const hasNul = (text: string) => text.includes('\0');

/** A search the trigram index answers: over exactly the indexed fields, three characters or more, no NUL. */
export const indexedSearch = (search: NonNullable<FindQuery['search']>, searchFields: readonly string[] | undefined): boolean =>
  !!searchFields &&
  [...search.text].length >= 3 &&
  !hasNul(search.text) &&
  search.fields.length === searchFields.length &&
  search.fields.every((f) => searchFields.includes(f));

export const instrSearch = (fields: readonly string[]) => `(${fields.map((f) => `instr(lower(coalesce(${path(f)}, '')), ?) > 0`).join(' OR ')})`;

/** `where` as SQL conditions on the document's fields (null: a missing or null field), with their parameters. */
const equalities = (fields: Record<string, Scalar>): { where: string[]; params: Scalar[] } => {
  const where: string[] = [];
  const params: Scalar[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (value === null) where.push(`${path(field)} IS NULL`);
    else {
      where.push(`${path(field)} = ?`);
      params.push(bind(value));
    }
  }
  return { where, params };
};

/** The SQL and parameters of `count` on `table`. */
export const sqliteCount = (table: string, fields: Record<string, Scalar>, atMost?: { field: string; value: number }): { sql: string; params: Scalar[] } => {
  const { where, params } = equalities(fields);
  if (atMost) {
    where.push(`${path(atMost.field)} <= ?`);
    params.push(atMost.value);
  }
  return { sql: `SELECT count(*) FROM "${table}"${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params };
};

/** A phrase of the trigram index: the text as a case-insensitive substring of one of its columns. */
export const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The SQL and parameters that `find` runs for a query on `table` (exported for the query-plan
 * test); `searchFields`: the collection's indexed search fields, if any; `window`: the part of
 * an indexed search's text to look up in the index (`searchWindow`), the rest checked on the rows.
 */
export const sqliteQuery = (table: string, q: FindQuery, searchFields?: readonly string[], window?: string | null): { sql: string; params: Scalar[] } => {
  const { where, params } = equalities(q.where ?? {});
  if (q.search && indexedSearch(q.search, searchFields)) {
    const { fts, rows } = searchTables(table);
    where.push(`id IN (SELECT r.id FROM "${fts}" JOIN "${rows}" r ON r.n = "${fts}".rowid WHERE "${fts}" MATCH ?)`);
    params.push(phrase(window ?? q.search.text));
    if (window) {
      // The rows holding the window, checked for the whole text as the index would (printable
      // ASCII only: lower() folds ASCII letters, as the index does).
      where.push(instrSearch(q.search.fields));
      for (let i = 0; i < q.search.fields.length; i++) params.push(q.search.text.toLowerCase());
    }
  } else if (q.search && hasNul(q.search.text)) {
    where.push(instrSearch(q.search.fields));
    for (let i = 0; i < q.search.fields.length; i++) params.push(q.search.text.toLowerCase());
  } else if (q.search && q.search.text !== '') {
    where.push(`(${q.search.fields.map((f) => `lower(${path(f)}) LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    for (let i = 0; i < q.search.fields.length; i++) params.push(`%${likeEscape(q.search.text)}%`);
  }
  const order = q.orderBy ?? { field: 'id', direction: 'desc' };
  const dir = order.direction === 'asc' ? 'ASC' : 'DESC';
  if (q.startingAfter !== undefined) {
    if (order.field !== 'id') throw new Error('startingAfter needs id ordering');
    where.push(`id ${dir === 'DESC' ? '<' : '>'} ?`);
    params.push(q.startingAfter);
  }
  const orderSql = order.field === 'id' ? `id ${dir}` : `${path(order.field)} ${dir}, id ${dir}`;
  let sql = `SELECT id, doc FROM "${table}"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderSql}`;
  // One more than asked, to tell whether there is a next page. Written into the text, not bound:
  // SQLite re-prepares a statement on every run whose LIMIT is a bound parameter (measured: a
  // page of 20 took 62 µs instead of 40); a prepared statement per limit costs nothing.
  if (q.limit !== undefined) {
    if (!Number.isSafeInteger(q.limit) || q.limit < 0) throw new Error(`invalid limit: ${q.limit}`);
    sql += ` LIMIT ${q.limit + 1}`;
  }
  return { sql, params };
};
