/** The JSON Schema (2020-12, as OpenAPI 3.1 uses) a codec stands for. */
export type JsonSchema = { [key: string]: unknown };

/** Codecs made by this package carry their schema, so validation and the OpenAPI document agree. */
export interface Described {
  readonly jsonSchema: JsonSchema;
}

export const isDescribed = (codec: unknown): codec is Described =>
  typeof codec === 'object' && codec !== null && 'jsonSchema' in codec;
