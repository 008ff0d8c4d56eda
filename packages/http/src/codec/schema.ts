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
 * Text that must not be blank (the domain's isBlank): at least one character that is neither
 * JavaScript's whitespace, a format character (\\p{Cf}: zero-width space, joiners, BOM), a
 * default-ignorable one (Hangul fillers, variation selectors) nor the blank Braille pattern. The
 * class spells them out, because `\\S` and `\\p{..}` mean other sets or nothing in other engines
 * (Python's counts U+001C to U+001F as space); the 127 format characters past U+FFFF (tags,
 * U+E0001…) are blank too, but left out of the pattern.
 */
export const NOT_BLANK_SCHEMA: JsonSchema = {
  pattern:
    '[^\\t-\\r \\u00a0\\u00ad\\u034f\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u115f\\u1160\\u1680\\u17b4\\u17b5\\u180b-\\u180f\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u2800\\u3000\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb]',
};

/** A phone number: at least one digit 0-9 (`\\d` would also match other scripts' digits in some regex engines). */
export const PHONE_SCHEMA: JsonSchema = { pattern: '[0-9]' };
