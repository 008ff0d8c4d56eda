import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

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

/**
 * A validator of values against a schema of the OpenAPI document (JSON Schema 2020-12, as
 * OpenAPI 3.1 is), its `$ref`s resolved in the document: the errors, none when it conforms.
 */
export const conformsTo = (doc: { components: { schemas: Record<string, unknown> } }, schema: object) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile({ ...schema, components: doc.components });
  return (value: unknown): string[] => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`));
};
