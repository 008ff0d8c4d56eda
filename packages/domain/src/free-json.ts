/**
 * The limits of free-form JSON (metadata, channel_metadata, attachments, an import's config):
 * what every read store stores and gives back as it was given. SQLite's JSON functions refuse
 * nesting past 1,000 levels; MongoDB refuses keys that start with `$`, hold `.` or NUL;
 * PostgreSQL's jsonb (FerretDB's backend) refuses NUL anywhere; a lone surrogate is kept by
 * SQLite and turned into U+FFFD by MongoDB; FerretDB refuses an array directly inside an
 * array. A value outside these limits is refused at the
 * door (400 naming its path), so no event the API appends can stop a projection.
 */
export const FREE_JSON_LIMITS = {
  /** Objects and arrays inside one another; the free-form object itself is level 1. */
  depth: 20,
  /** Keys in one object. */
  keys: 100,
  /** Items in one array. */
  items: 100,
  /** A key's length in characters. */
  keyLength: 200,
  /** A string value's length in characters. */
  stringLength: 10_000,
} as const;

/** The key the body parser's guard against prototype poisoning refuses anywhere in a body. */
export const FORBIDDEN_KEY = '__proto__';

export interface FreeJsonProblem {
  /** Keys and array indexes from the free-form value down to the offending part. */
  path: string[];
  message: string;
}

/** A lone surrogate: a UTF-16 half without its other half (not a character; engines disagree on it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const length = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const keyProblem = (key: string): string | null => {
  if (key === '') return 'must not be an empty key';
  if (key === FORBIDDEN_KEY) return `must not be a key named ${FORBIDDEN_KEY}`;
  if (key.startsWith('$')) return 'must not be a key that starts with $';
  if (key.includes('.')) return 'must not be a key that holds a dot';
  if (key.includes('\u0000')) return 'must not be a key that holds U+0000 (NUL)';
  if (LONE_SURROGATE.test(key)) return 'must not be a key that holds a lone surrogate';
  if (length(key) > FREE_JSON_LIMITS.keyLength) return `must be a key of at most ${FREE_JSON_LIMITS.keyLength} characters`;
  return null;
};

const stringProblem = (s: string): string | null => {
  if (s.includes('\u0000')) return 'must not hold U+0000 (NUL)';
  if (LONE_SURROGATE.test(s)) return 'must not hold a lone surrogate';
  if (s.length > FREE_JSON_LIMITS.stringLength && length(s) > FREE_JSON_LIMITS.stringLength)
    return `must be at most ${FREE_JSON_LIMITS.stringLength} characters`;
  return null;
};

/**
 * The first part of `value` outside the limits, or null. Iterative, depth checked before
 * descending, so no input (10,000 levels, 100,000 keys) can exhaust the stack.
 */
export const freeJsonProblem = (value: unknown, opts: { inArray?: boolean } = {}): FreeJsonProblem | null => {
  // `inArray`: the value is an item of an array (an attachment), so it must not be an array itself.
  const stack: { value: unknown; path: string[]; depth: number; inArray: boolean }[] = [{ value, path: [], depth: 0, inArray: opts.inArray ?? false }];
  while (stack.length > 0) {
    const { value: v, path, depth, inArray } = stack.pop()!;
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path, message: 'must be a finite number' };
      continue;
    }
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return { path, message: problem };
      continue;
    }
    if (typeof v !== 'object') return { path, message: 'must be a JSON value' };
    if (depth + 1 > FREE_JSON_LIMITS.depth) return { path, message: `must not nest objects and arrays deeper than ${FREE_JSON_LIMITS.depth} levels` };
    if (Array.isArray(v)) {
      if (inArray) return { path, message: 'must not be an array directly inside an array (put it in an object)' };
      if (v.length > FREE_JSON_LIMITS.items) return { path, message: `must have at most ${FREE_JSON_LIMITS.items} items` };
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, String(i)], depth: depth + 1, inArray: true });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > FREE_JSON_LIMITS.keys) return { path, message: `must have at most ${FREE_JSON_LIMITS.keys} keys` };
    for (let i = keys.length - 1; i >= 0; i--) {
      const problem = keyProblem(keys[i]);
      if (problem) return { path: [...path, keys[i]], message: problem };
      stack.push({ value: (v as Record<string, unknown>)[keys[i]], path: [...path, keys[i]], depth: depth + 1, inArray: false });
    }
  }
  return null;
};

/** The limits as one sentence, for error messages and the OpenAPI document. */
export const FREE_JSON_RULES =
  `Free-form JSON: at most ${FREE_JSON_LIMITS.depth} levels of objects and arrays, ${FREE_JSON_LIMITS.keys} keys an object, ` +
  `${FREE_JSON_LIMITS.items} items an array, no array directly inside an array; keys of 1 to ${FREE_JSON_LIMITS.keyLength} characters, not starting with $, ` +
  `without a dot, not ${FORBIDDEN_KEY}; strings of at most ${FREE_JSON_LIMITS.stringLength} characters; no U+0000 and no lone surrogate anywhere.`;
