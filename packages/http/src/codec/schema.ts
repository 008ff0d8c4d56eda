/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) a codec stands for. */
export type JsonSchema = { [key: string]: unknown };

/** Codecs made by this package carry their schema, so validation and the OpenAPI document agree. */
export interface Described {
  readonly jsonSchema: JsonSchema;
}

export const isDescribed = (codec: unknown): codec is Described =>
  typeof codec === 'object' && codec !== null && 'jsonSchema' in codec;

/**
 * The same codec, its schema also stating a rule the domain checks beyond the shape (a phone
 * needs a digit; a customer needs an email, phone or external_id), so a generated client knows
 * it. Validation is unchanged: the domain's rule answers with its own message and code.
 */
export const withSchema = <C extends Described>(codec: C, extra: JsonSchema): C =>
  Object.assign(Object.create(Object.getPrototypeOf(codec) as object) as C, codec, { jsonSchema: { ...codec.jsonSchema, ...extra } });

/** At least one of these fields must be present. */
export const oneOfRequired = (fields: readonly string[]): JsonSchema => ({ anyOf: fields.map((f) => ({ required: [f] })) });

/** A phone number: at least one digit. */
export const PHONE_SCHEMA: JsonSchema = { pattern: '\\d' };
