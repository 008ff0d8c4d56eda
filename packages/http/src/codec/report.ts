import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { ApiError } from '../errors';

const pathOf = (e: t.ValidationError) =>
  e.context
    .map((c) => c.key)
    .filter((k) => k !== '')
    .join('.');

/** Names every offending field: `customer.email must be a string; limit must be an integer between 1 and 100`. */
export const describeErrors = (errors: t.Errors, where: string): { message: string; fields: { field: string; message: string }[] } => {
  const byPath = new Map<string, string>();
  for (const e of errors) {
    const path = pathOf(e);
    if (!byPath.has(path)) byPath.set(path, e.message ?? `must be ${e.context[e.context.length - 1]?.type.name ?? 'valid'}`);
  }
  const fields = [...byPath].map(([field, message]) => ({ field: field || where, message }));
  return { message: `Invalid ${where}: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`, fields };
};

/** Decodes or throws the spec's schema-validation 400 (message and statusCode, no code). */
export const decodeOrThrow = <A>(codec: t.Decoder<unknown, A>, value: unknown, where: 'body' | 'query' | 'path'): A => {
  const r = codec.decode(value);
  if (E.isRight(r)) return r.right;
  const { message, fields } = describeErrors(r.left, where);
  throw new ApiError(400, message, undefined, { fields });
};
