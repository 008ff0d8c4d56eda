/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) a codec stands for. */
export type JsonSchema = { [key: string]: unknown };

/** Codecs made by this package carry their schema, so validation and the OpenAPI document agree. */
export interface Described {
  readonly jsonSchema: JsonSchema;
}

export const isDescribed = (codec: unknown): codec is Described => typeof codec === 'object' && codec !== null && 'jsonSchema' in codec;

/**
 * The same codec, its schema also stating a rule the domain checks beyond the shape (a phone
 * needs a digit; a customer needs an email, phone or external_id), so a generated client knows
 * it. Validation is unchanged: the domain's rule answers with its own message and code.
 */
export const withSchema = <C extends Described>(codec: C, extra: JsonSchema): C =>
  Object.assign(Object.create(Object.getPrototypeOf(codec) as object) as C, codec, { jsonSchema: { ...codec.jsonSchema, ...extra } });

/** At least one of these fields must be present. */
export const oneOfRequired = (fields: readonly string[]): JsonSchema => ({ anyOf: fields.map((f) => ({ required: [f] })) });

/**
 * Text that must not be blank: at least one character that String.prototype.trim keeps. The
 * class spells out JavaScript's whitespace, because `\\S` means another set in other engines
 * (Python's counts U+001C to U+001F as space and U+FEFF as not).
 */
export const NOT_BLANK_SCHEMA: JsonSchema = { pattern: '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]' };

/** A phone number: at least one digit 0-9 (`\\d` would also match other scripts' digits in some regex engines). */
export const PHONE_SCHEMA: JsonSchema = { pattern: '[0-9]' };
