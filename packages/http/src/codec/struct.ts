import * as t from 'io-ts';
import { input } from '@support/domain';
import { Described, JsonSchema } from './schema';

type Props = Record<string, t.Mixed & Described>;
type Out<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & { [K in keyof O]?: t.TypeOf<O[K]> };

/**
 * A closed JSON object: required and optional fields, and an unknown field is an error (a typo
 * should not pass silently). The rules are the domain's `closed` (shared with import files);
 * this adds the JSON Schema for the OpenAPI document.
 */
export class Struct<R extends Props, O extends Props> extends t.Type<Out<R, O>, unknown, unknown> implements Described {
  readonly jsonSchema: JsonSchema;

  constructor(
    readonly required: R,
    readonly optional: O,
    opts: StructOptions<R, O> = {},
  ) {
    const rules = input.closed(opts.title ?? 'object', required, optional);
    super(
      rules.name,
      (u): u is Out<R, O> => rules.is(u),
      (u, c) => rules.validate(u, c),
      (a) => a,
    );
    const properties = Object.fromEntries(Object.entries({ ...required, ...optional }).map(([k, c]) => [k, c.jsonSchema]));
    this.jsonSchema = {
      type: 'object',
      properties,
      ...(Object.keys(required).length ? { required: Object.keys(required) } : {}),
      additionalProperties: false,
      ...(opts.title ? { title: opts.title } : {}),
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.example ? { examples: [opts.example] } : {}),
    };
    // An example the codec refuses would teach clients a wrong shape: refused when the module loads.
    if (opts.example !== undefined && this.decode(opts.example)._tag === 'Left')
      throw new Error(`the example of ${opts.title ?? 'an object'} does not decode with its codec`);
  }
}

export interface StructOptions<R extends Props, O extends Props> {
  title?: string;
  description?: string;
  /** A realistic value (`cus_01…`, not `"string"`), shown by the reference page and generated clients. */
  example?: Out<R, O>;
}

export const struct = <R extends Props, O extends Props = Record<never, never>>(required: R, optional?: O, opts?: StructOptions<R, O>) =>
  new Struct<R, O>(required, (optional ?? {}) as O, opts);
