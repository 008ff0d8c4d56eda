import * as t from 'io-ts';
import { FORBIDDEN_KEY, FREE_JSON_LIMITS, FREE_JSON_RULES, freeJsonProblem, isBlank, normalText, unfitText } from '@support/domain';
import { EXAMPLE_ID } from '../resources/examples';
import { Described, JsonSchema, NOT_BLANK_SCHEMA } from './schema';

/** A codec with its own failure message and schema. */
export class Rule<A, O = A> extends t.Type<A, O, unknown> implements Described {
  constructor(
    name: string,
    readonly jsonSchema: JsonSchema,
    is: (u: unknown) => u is A,
    check: (u: unknown) => string | { value: A },
    encode: (a: A) => O,
  ) {
    super(
      name,
      is,
      (u, c) => {
        const r = check(u);
        return typeof r === 'string' ? t.failure(u, c, r) : t.success(r.value);
      },
      encode,
    );
  }
}

const id = <A>(a: A) => a;

/**
 * `patternMessage`: the failure when `pattern` does not match (default: "must match <pattern>").
 * `notBlank`: refused when blank (the domain's isBlank), a field error like an empty string's,
 * documented by NOT_BLANK_SCHEMA's pattern (so not with `pattern`).
 */
export const str = (
  opts: {
    min?: number;
    max?: number;
    pattern?: RegExp;
    patternMessage?: string;
    notBlank?: boolean;
    description?: string;
    format?: string;
    example?: string;
  } = {},
) => {
  const schema: JsonSchema = { type: 'string' };
  if (opts.min !== undefined) schema.minLength = opts.min;
  if (opts.max !== undefined) schema.maxLength = opts.max;
  if (opts.pattern) schema.pattern = opts.pattern.source;
  else if (opts.notBlank) Object.assign(schema, NOT_BLANK_SCHEMA);
  if (opts.format) schema.format = opts.format;
  if (opts.description) schema.description = opts.description;
  if (opts.example !== undefined) schema.examples = [opts.example];
  const check = (u: unknown): string | { value: string } => {
    if (typeof u !== 'string') return 'must be a string';
    const unfit = unfitText(u);
    if (unfit) return unfit;
    // Stored in NFC (docs/reference/api.md, "Text"); its length in characters (code points), as a person counts them.
    const value = normalText(u);
    const length = [...value].length;
    if (opts.min !== undefined && length < opts.min) return opts.min === 1 ? 'must not be empty' : `must be at least ${opts.min} characters`;
    if (opts.notBlank && isBlank(value)) return 'must not be blank';
    if (opts.max !== undefined && length > opts.max) return `must be at most ${opts.max} characters`;
    if (opts.pattern && !opts.pattern.test(value)) return opts.patternMessage ?? `must match ${opts.pattern.source}`;
    return { value };
  };
  return new Rule<string>('string', schema, (u): u is string => typeof check(u) !== 'string', check, id);
};

export const int = (opts: { min?: number; max?: number; description?: string } = {}) => {
  const schema: JsonSchema = { type: 'integer' };
  if (opts.min !== undefined) schema.minimum = opts.min;
  if (opts.max !== undefined) schema.maximum = opts.max;
  if (opts.description) schema.description = opts.description;
  const range = opts.min !== undefined && opts.max !== undefined ? ` between ${opts.min} and ${opts.max}` : opts.min !== undefined ? ` ≥ ${opts.min}` : '';
  const check = (u: unknown): string | { value: number } =>
    typeof u === 'number' && Number.isInteger(u) && (opts.min === undefined || u >= opts.min) && (opts.max === undefined || u <= opts.max)
      ? { value: u }
      : `must be an integer${range}`;
  return new Rule<number>('integer', schema, (u): u is number => typeof check(u) !== 'string', check, id);
};

export const bool = (description?: string) =>
  new Rule<boolean>(
    'boolean',
    { type: 'boolean', ...(description ? { description } : {}) },
    (u): u is boolean => typeof u === 'boolean',
    (u) => (typeof u === 'boolean' ? { value: u } : 'must be true or false'),
    id,
  );

export const oneOf = <V extends string>(values: readonly V[], description?: string) => {
  const check = (u: unknown): string | { value: V } =>
    typeof u === 'string' && (values as readonly string[]).includes(u) ? { value: u as V } : `must be one of ${values.join(', ')}`;
  return new Rule<V>(
    values.join(' | '),
    { type: 'string', enum: [...values], ...(description ? { description } : {}) },
    (u): u is V => typeof check(u) !== 'string',
    check,
    id,
  );
};

export const nullable = <C extends t.Mixed & Described>(codec: C) => {
  const inner = codec.jsonSchema;
  // An enum admits null only when it lists it: `type` alone would still refuse it.
  const schema: JsonSchema =
    typeof inner.type === 'string'
      ? { ...inner, type: [inner.type, 'null'], ...(Array.isArray(inner.enum) ? { enum: [...(inner.enum as unknown[]), null] } : {}) }
      : { anyOf: [inner, { type: 'null' }] };
  return new NullableType<C>(codec, schema);
};

class NullableType<C extends t.Mixed> extends t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown> implements Described {
  constructor(
    codec: C,
    readonly jsonSchema: JsonSchema,
  ) {
    super(
      `${codec.name} | null`,
      (u): u is t.TypeOf<C> | null => u === null || codec.is(u),
      (u, c) => (u === null ? t.success(null) : (codec.validate(u, c) as t.Validation<t.TypeOf<C>>)),
      (a) => (a === null ? null : (codec.encode(a) as t.OutputOf<C>)),
    );
  }
}

export const arrayOf = <C extends t.Mixed & Described>(item: C, opts: { max?: number; description?: string } = {}) => new ArrayOf<C>(item, opts);

class ArrayOf<C extends t.Mixed & Described> extends t.Type<t.TypeOf<C>[], t.OutputOf<C>[], unknown> implements Described {
  readonly jsonSchema: JsonSchema;
  constructor(item: C, opts: { max?: number; description?: string }) {
    super(
      `Array<${item.name}>`,
      (u): u is t.TypeOf<C>[] => Array.isArray(u) && u.every(item.is),
      (u, c) => {
        if (!Array.isArray(u)) return t.failure(u, c, 'must be an array');
        if (opts.max !== undefined && u.length > opts.max) return t.failure(u, c, `must have at most ${opts.max} items`);
        const out: t.TypeOf<C>[] = [];
        const errors: t.Errors = [];
        u.forEach((v, i) => {
          const r = item.validate(v, t.appendContext(c, String(i), item, v));
          if (r._tag === 'Left') errors.push(...r.left);
          else out.push(r.right as t.TypeOf<C>);
        });
        return errors.length ? t.failures(errors) : t.success(out);
      },
      (a) => a.map((x) => item.encode(x) as t.OutputOf<C>),
    );
    this.jsonSchema = {
      type: 'array',
      items: item.jsonSchema,
      ...(opts.max !== undefined ? { maxItems: opts.max } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    };
  }
}

/**
 * The one key refused anywhere in a JSON body: the body parser's guard against prototype
 * poisoning answers 400 to it, so every JSON value in the document excludes it at every depth.
 */
export { FORBIDDEN_KEY };

/** Any JSON value, without the forbidden key at any depth: components.schemas.JsonValue (what responses and MCP carry). */
export const JSON_VALUE_SCHEMA: JsonSchema = {
  description: `Any JSON value; no object in it may have a key named ${FORBIDDEN_KEY}`,
  anyOf: [
    { type: ['null', 'boolean', 'number', 'string'] },
    { type: 'array', items: { $ref: '#/components/schemas/JsonValue' } },
    { type: 'object', propertyNames: { not: { const: FORBIDDEN_KEY } }, additionalProperties: { $ref: '#/components/schemas/JsonValue' } },
  ],
};

const FREE_VALUE = { $ref: '#/components/schemas/FreeJsonValue' };
const FREE_ITEM = { $ref: '#/components/schemas/FreeJsonItem' };
const FREE_KEY: JsonSchema = {
  minLength: 1,
  maxLength: FREE_JSON_LIMITS.keyLength,
  pattern: '^[^$.\\u0000][^.\\u0000]*$',
  not: { const: FORBIDDEN_KEY },
};

/** components.schemas.FreeJsonValue: a value in free-form request fields, within the limits every read store holds. */
export const FREE_JSON_VALUE_SCHEMA: JsonSchema = {
  description: FREE_JSON_RULES,
  anyOf: [
    { type: ['null', 'boolean', 'number'] },
    { type: 'string', maxLength: FREE_JSON_LIMITS.stringLength, pattern: '^[^\\u0000]*$' },
    { type: 'array', maxItems: FREE_JSON_LIMITS.items, items: FREE_ITEM },
    { type: 'object', maxProperties: FREE_JSON_LIMITS.keys, propertyNames: FREE_KEY, additionalProperties: FREE_VALUE },
  ],
};

/** components.schemas.FreeJsonItem: an item of an array in free-form JSON: any free value but an array. */
export const FREE_JSON_ITEM_SCHEMA: JsonSchema = {
  description: 'An item of an array in free-form JSON: anything FreeJsonValue allows but an array (no array directly inside an array)',
  anyOf: (FREE_JSON_VALUE_SCHEMA.anyOf as JsonSchema[]).filter((s) => s.type !== 'array'),
};

/**
 * Free-form JSON in a request (free-json.ts's limits); a failure names the path down to the
 * offending key or value: `metadata.a.0 must not hold U+0000 (NUL)`.
 */
export class FreeJson<A> extends t.Type<A, A, unknown> implements Described {
  constructor(
    readonly jsonSchema: JsonSchema,
    objectOnly: boolean,
    inArray = false,
  ) {
    super(
      objectOnly ? 'object' : 'unknown',
      (u): u is A => (!objectOnly || isPlainObject(u)) && freeJsonProblem(u, { inArray }) === null,
      (u, c) => {
        if (objectOnly && !isPlainObject(u)) return t.failure(u, c, 'must be an object');
        const problem = freeJsonProblem(u, { inArray });
        if (!problem) return t.success(u as A);
        const context = problem.path.reduce((ctx, key) => t.appendContext(ctx, key, this, undefined), c);
        return t.failure(u, context, problem.message);
      },
      (a) => a,
    );
  }
}

const isPlainObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** A JSON object with free keys (metadata, channel_metadata, an attachment). */
export const freeObject = (description?: string) =>
  new FreeJson<Record<string, unknown>>(
    {
      type: 'object',
      maxProperties: FREE_JSON_LIMITS.keys,
      propertyNames: FREE_KEY,
      additionalProperties: FREE_VALUE,
      ...(description ? { description } : {}),
    },
    true,
  );

/** Any JSON value but an array, as an item of a request's array (an agent message's attachment), within the same limits. */
export const freeItem = (description?: string) => new FreeJson<unknown>({ ...FREE_ITEM, ...(description ? { description } : {}) }, false, true);

/** A JSON object in a response (checked on the way in, or the service's own). */
export const jsonObject = (description?: string) =>
  new Rule<Record<string, unknown>>(
    'object',
    { type: 'object', additionalProperties: { $ref: '#/components/schemas/JsonValue' }, ...(description ? { description } : {}) },
    isPlainObject,
    (u) => (isPlainObject(u) ? { value: u } : 'must be an object'),
    id,
  );

/** Any JSON value in a response (checked on the way in, or the service's own). */
export const anyJson = (description?: string) =>
  new Rule<unknown>(
    'unknown',
    { $ref: '#/components/schemas/JsonValue', ...(description ? { description } : {}) },
    (_u): _u is unknown => true,
    (u) => ({ value: u }),
    id,
  );

export const literal = <V extends string>(value: V) =>
  new Rule<V>(
    JSON.stringify(value),
    { type: 'string', const: value },
    (u): u is V => u === value,
    (u) => (u === value ? { value } : `must be "${value}"`),
    id,
  );

/** Query parameters arrive as text: this parses an integer from it. */
export const queryInt = (opts: { min: number; max: number }) => {
  const inner = int(opts);
  const check = (u: unknown): string | { value: number } => {
    if (typeof u !== 'string' || !/^-?\d+$/.test(u)) return `must be an integer between ${opts.min} and ${opts.max}`;
    const n = Number(u);
    return n >= opts.min && n <= opts.max ? { value: n } : `must be an integer between ${opts.min} and ${opts.max}`;
  };
  return new Rule<number, string>('integer', inner.jsonSchema, (u): u is number => inner.is(u), check, String);
};

const ULID_TEXT = '[0-9A-HJKMNP-TV-Z]{26}';

/** The documents' example id of a kind (resources/examples.ts), or one of its form. */
const exampleIdOf = (prefix: string): string =>
  Object.values(EXAMPLE_ID).find((id) => id.startsWith(prefix) && /^[0-9A-Z]{26}$/.test(id.slice(prefix.length))) ?? `${prefix}01JDQ5ASHBTBPZ44902DN3Z5SS`;

/** A resource id in a path: a malformed one is a 400 naming the expected form, not a 404. */
export const resourceId = (prefix: string, what: string) => {
  const pattern = new RegExp(`^${prefix}${ULID_TEXT}$`);
  return new Rule<string>(
    'string',
    { type: 'string', pattern: pattern.source, description: `${what} id`, examples: [exampleIdOf(prefix)] },
    (u): u is string => typeof u === 'string' && pattern.test(u),
    (u) => (typeof u === 'string' && pattern.test(u) ? { value: u } : `must be a ${what} id (${prefix}…)`),
    id,
  );
};
