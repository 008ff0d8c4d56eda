import { CollectionSpec, FindQuery } from './port';

/**
 * The declared index that serves a query, or null when none does. An index serves it when every
 * field of the index is an equality condition of `where` and, when ordering by a field other
 * than the id, that field comes right after them: the engine then reads only matching entries,
 * already in order (each index ends with the id). A query without conditions is served by the id
 * index (`[]`) in id order. Search and further conditions are checked on the entries read.
 * Of several, the one with the most equality fields.
 */
export const servingIndex = (spec: CollectionSpec, q: FindQuery): readonly string[] | null => {
  const equal = new Set(Object.keys(q.where ?? {}));
  const order = q.orderBy?.field ?? 'id';
  let best: readonly string[] | null = null;
  for (const fields of [[], ...(spec.indexes ?? [])] as (readonly string[])[]) {
    const prefix = order === 'id' ? fields : fields.slice(0, -1);
    if (order !== 'id' && fields[fields.length - 1] !== order) continue;
    if (!prefix.every((f) => equal.has(f))) continue;
    // Conditions that the index does not narrow at all: a scan of the whole collection.
    if (equal.size > 0 && prefix.length === 0) continue;
    if (!best || prefix.length > best.length - (order === 'id' ? 0 : 1)) best = fields;
  }
  return best;
};
