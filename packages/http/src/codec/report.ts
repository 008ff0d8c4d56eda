import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { ApiError } from '../errors';

const pathOf = (e: t.ValidationError) =>
  e.context
    .map((c) => c.key)
    .filter((k) => k !== '')
    .join('.');

/**
 * Why a field was refused, for programs (as Stripe's `param` and `code`; the message is for
 * people and may be reworded): the kind of rule it broke, read from the message the codecs write.
 */
export const FIELD_ERROR_CODES = [
  'required',
  'unknown_field',
  'invalid_type',
  'invalid_value',
  'invalid_format',
  'invalid_characters',
  'too_short',
  'too_long',
  'out_of_range',
  'too_deep',
  'invalid_structure',
] as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

const CODE_OF: [RegExp, FieldErrorCode][] = [
  [/^is required$/, 'required'],
  [/^is not a known field$/, 'unknown_field'],
  [/U\+0000|lone surrogate|key that starts with \$|key that holds a dot|key named /, 'invalid_characters'],
  [/deeper than \d+ levels/, 'too_deep'],
  [/directly inside an array/, 'invalid_structure'],
  [/^must not be (?:empty|blank|an empty key)$|^must be at least \d+ characters/, 'too_short'],
  [/at most \d+ (?:characters|items|keys)/, 'too_long'],
  [/between -?\d+ and -?\d+|≥ -?\d+/, 'out_of_range'],
  [/^must be one of |^must be "/, 'invalid_value'],
  [/^must be (?:a string|an integer|a finite number|true or false|an object|an array|an array of strings|a JSON value)(?: \(or null\))?$/, 'invalid_type'],
];

/** The code of a codec's message; what no rule above names is a format (an id, a URL, a date-time, a pattern). */
export const fieldErrorCode = (message: string): FieldErrorCode => CODE_OF.find(([re]) => re.test(message))?.[1] ?? 'invalid_format';

/** Names every offending field: `customer.email must be a string; limit must be an integer between 1 and 100`. */
export const describeErrors = (errors: t.Errors, where: string): { message: string; fields: { field: string; code: FieldErrorCode; message: string }[] } => {
  const byPath = new Map<string, string>();
  for (const e of errors) {
    const path = pathOf(e);
    if (!byPath.has(path)) byPath.set(path, e.message ?? `must be ${e.context[e.context.length - 1]?.type.name ?? 'valid'}`);
  }
  const fields = [...byPath].map(([field, message]) => ({ field: field || where, code: fieldErrorCode(message), message }));
  return { message: `Invalid ${where}: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`, fields };
};

/** Decodes or throws the spec's schema-validation 400 (message and statusCode, no code). */
export const decodeOrThrow = <A>(codec: t.Decoder<unknown, A>, value: unknown, where: 'body' | 'query' | 'path'): A => {
  const r = codec.decode(value);
  if (E.isRight(r)) return r.right;
  const { message, fields } = describeErrors(r.left, where);
  throw new ApiError(400, message, undefined, { fields });
};
