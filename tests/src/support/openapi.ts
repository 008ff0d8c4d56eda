/**
 * A schema of the OpenAPI document with its `$ref`s to `components.schemas` replaced by what they
 * name, all the way down (a schema that names itself, like JsonValue, is left as a `$ref` inside).
 */
export const resolved = (doc: { components: { schemas: Record<string, unknown> } }, value: any, seen: readonly string[] = []): any => {
  if (Array.isArray(value)) return value.map((v) => resolved(doc, v, seen));
  if (typeof value !== 'object' || value === null) return value;
  const ref = typeof value.$ref === 'string' ? value.$ref.replace('#/components/schemas/', '') : null;
  if (ref !== null && !seen.includes(ref)) return resolved(doc, doc.components.schemas[ref], [...seen, ref]);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(doc, v, seen)]));
};
