import fc from 'fast-check';
import { FREE_JSON_LIMITS as L } from '@support/domain';

/** Any code point but the lone surrogates (fast-check's binary unit), NUL included at times. */
const anyText = (maxLength: number) => fc.string({ unit: 'binary', maxLength });

/** A key the limits accept: 1 to keyLength characters, not `$…`, no `.` or NUL, not __proto__. */
export const goodKey = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 12 })
  .map((k) => k.replaceAll('.', '_').replaceAll('\u0000', '_').replace(/^\$/, '_'))
  .filter((k) => k !== '__proto__' && k.length > 0);

const goodString = anyText(40).map((s) => s.replaceAll('\u0000', ' '));

/** Free-form objects within the limits (depth kept small; the edge cases come from `atLimits`). */
export const goodObject: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.integer(),
    goodString,
    fc.array(tie('value'), { maxLength: 4 }).filter((items) => !items.some(Array.isArray)),
    tie('object'),
  ),
  object: fc.dictionary(goodKey, tie('value'), { maxKeys: 5, noNullPrototype: true }),
})).object;

const nest = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
};

const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const codePoints = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? '𝄞' : i % 3 === 1 ? 'é' : 'a')).join('');

/** Values exactly at each limit: accepted. */
export const atLimits = (): Record<string, unknown>[] => [
  { deep: nest(L.depth - 1, 'leaf') },
  manyKeys(L.keys),
  { items: Array.from({ length: L.items }, (_, i) => i) },
  { [codePoints(L.keyLength)]: 1 },
  { text: codePoints(L.stringLength) },
  { 'ключ 🔑': 'значение', 'a-b_c d': [null, true, 1.5, -0.25, { inner: [1] }] },
  // Keys Object.prototype has, holding arrays: the MongoDB driver's default gave these back as raw BSON buffers.
  // ("constructor" too, which the property test found; tap's strictSame compares constructors, so it is left to that test.)
  { toString: [{ a: 1 }], valueOf: ['v'], hasOwnProperty: [{ b: [2] }], isPrototypeOf: [{}] },
];

/** One value beyond each limit, with the path the refusal names and a word of its message. */
export const beyondLimits = (): { name: string; value: Record<string, unknown>; path: string; says: RegExp }[] => [
  { name: 'one level too deep', value: { deep: nest(L.depth, 'leaf') }, path: `deep${'.0.n'.repeat(9)}.0`, says: /deeper than 20 levels/ },
  { name: 'a thousand levels (the reproduction)', value: { a: nest(999, 1) }, path: `a${'.n.0'.repeat(9)}.n`, says: /deeper than/ },
  { name: 'too many keys', value: manyKeys(L.keys + 1), path: '', says: /at most 100 keys/ },
  { name: 'too many items', value: { items: Array.from({ length: L.items + 1 }, () => 0) }, path: 'items', says: /at most 100 items/ },
  { name: 'a key too long', value: { [codePoints(L.keyLength + 1)]: 1 }, path: codePoints(L.keyLength + 1), says: /at most 200 characters/ },
  { name: 'a string too long', value: { s: codePoints(L.stringLength + 1) }, path: 's', says: /at most 10000 characters/ },
  { name: 'a $ key', value: { ok: { $where: 1 } }, path: 'ok.$where', says: /starts with \$/ },
  { name: 'a dotted key', value: { 'a.b': 1 }, path: 'a.b', says: /dot/ },
  { name: 'an empty key', value: { '': 1 }, path: '', says: /empty key/ },
  { name: 'an array in an array', value: { points: [{ ok: [1] }, [1, 2]] }, path: 'points.1', says: /array directly inside an array/ },
  { name: 'NUL in a key', value: { 'a\u0000b': 1 }, path: 'a\u0000b', says: /NUL/ },
  { name: 'NUL in a value', value: { list: ['x', 'a\u0000b'] }, path: 'list.1', says: /NUL/ },
  { name: 'a lone surrogate in a value', value: { s: 'a\ud800b' }, path: 's', says: /lone surrogate/ },
  { name: 'a lone surrogate in a key', value: { ['\udc00']: 1 }, path: '\udc00', says: /lone surrogate/ },
];

/** A value within the limits with one violation put somewhere inside it. */
export const withOneViolation = fc
  .tuple(goodObject, fc.constantFrom(...beyondLimits()), fc.array(goodKey, { minLength: 0, maxLength: 3 }))
  .map(([base, bad, path]) => {
    // Place the bad object under `path` (objects only, so the depth added stays known).
    const value: Record<string, unknown> = { ...base };
    let at = value;
    for (const key of path) {
      const next: Record<string, unknown> = {};
      at[key] = next;
      at = next;
    }
    Object.assign(at, bad.value);
    return { value, kind: bad.name };
  });
