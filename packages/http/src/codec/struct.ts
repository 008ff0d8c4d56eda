import * as t from 'io-ts';
import { Described, JsonSchema } from './schema';

type Props = Record<string, t.Mixed & Described>;
type Out<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & { [K in keyof O]?: t.TypeOf<O[K]> };

/**
 * A closed JSON object: required and optional fields, and an unknown field is an error
 * (a typo should not pass silently). `undefined` counts as absent.
 */
export class Struct<R extends Props, O extends Props> extends t.Type<Out<R, O>, unknown, unknown> implements Described {
  readonly jsonSchema: JsonSchema;

  constructor(readonly required: R, readonly optional: O, opts: { title?: string; description?: string; open?: boolean } = {}) {
    super(opts.title ?? 'object', (u): u is Out<R, O> => u !== null && typeof u === 'object', (u, c) => {
      if (u === null || typeof u !== 'object' || Array.isArray(u)) return t.failure(u, c, 'must be a JSON object');
      const input = u as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const errors: t.Errors = [];
      for (const key of Object.keys(input)) {
        if (!(key in required) && !(key in optional) && !opts.open) {
          errors.push({ value: input[key], context: t.appendContext(c, key, t.never, input[key]), message: 'is not a known field' });
        }
      }
      const field = (key: string, codec: t.Mixed, isRequired: boolean) => {
        const value = input[key];
        if (value === undefined) {
          if (isRequired) errors.push({ value, context: t.appendContext(c, key, codec, value), message: 'is required' });
          return;
        }
        const r = codec.validate(value, t.appendContext(c, key, codec, value));
        if (r._tag === 'Left') errors.push(...r.left);
        else out[key] = r.right;
      };
      for (const [key, codec] of Object.entries(required)) field(key, codec, true);
      for (const [key, codec] of Object.entries(optional)) field(key, codec, false);
      return errors.length ? t.failures(errors) : t.success(out as Out<R, O>);
    }, (a) => a);
    const properties = Object.fromEntries(Object.entries({ ...required, ...optional }).map(([k, c]) => [k, c.jsonSchema]));
    this.jsonSchema = {
      type: 'object',
      properties,
      ...(Object.keys(required).length ? { required: Object.keys(required) } : {}),
      additionalProperties: !!opts.open,
      ...(opts.title ? { title: opts.title } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    };
  }
}

export const struct = <R extends Props, O extends Props = Record<never, never>>(required: R, optional?: O, opts?: { title?: string; description?: string; open?: boolean }) =>
  new Struct<R, O>(required, (optional ?? {}) as O, opts);
