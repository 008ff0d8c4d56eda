import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { freeJsonProblem } from './free-json';
import { isIdOf } from './ids';
import { isBlank, normalText, unfitText } from './text';

/**
 * Codecs for commands that arrive as data (an import file): every failure carries a message a
 * person can act on, and `describeInput` turns them into `field message` lines.
 */
export class Check<A> extends t.Type<A, A, unknown> {
  constructor(name: string, check: (u: unknown) => string | { value: A }) {
    super(
      name,
      (u): u is A => typeof check(u) !== 'string',
      (u, c) => {
        const r = check(u);
        return typeof r === 'string' ? t.failure(u, c, r) : t.success(r.value);
      },
      t.identity,
    );
  }
}

export const text = (opts: { blank?: boolean; max?: number } = {}) =>
  new Check<string>('string', (u) => {
    if (typeof u !== 'string') return 'must be a string';
    const unfit = unfitText(u);
    if (unfit) return unfit;
    if (!opts.blank && isBlank(u)) return 'must not be blank';
    const value = normalText(u);
    if (opts.max !== undefined && [...value].length > opts.max) return `must be at most ${opts.max} characters`;
    return { value };
  });

export const whole = (opts: { min: number }) =>
  new Check<number>('integer', (u) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= opts.min ? { value: u } : `must be an integer ≥ ${opts.min}`));

export const flag = () => new Check<boolean>('boolean', (u) => (typeof u === 'boolean' ? { value: u } : 'must be true or false'));

export const among = <V extends string>(values: readonly V[]) =>
  new Check<V>(values.join(' | '), (u) =>
    typeof u === 'string' && (values as readonly string[]).includes(u)
      ? { value: u as V }
      : `must be one of ${values.join(', ')}${typeof u === 'string' ? ` (got "${u}")` : ''}`,
  );

export const exactly = <V extends string>(value: V) => new Check<V>(JSON.stringify(value), (u) => (u === value ? { value } : `must be "${value}"`));

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with a zone, kept as the same instant in UTC with milliseconds. */
export const isoTime = () =>
  new Check<string>('date-time', (u) => {
    if (typeof u !== 'string' || !ISO_DATE_TIME.test(u) || Number.isNaN(Date.parse(u)))
      return 'must be an ISO 8601 date-time with a zone, e.g. 2026-01-31T09:30:00Z';
    return { value: new Date(u).toISOString() };
  });

export const prefixedId = (prefix: string) =>
  new Check<string>(`${prefix}id`, (u) => (typeof u === 'string' && isIdOf(prefix, u) ? { value: u } : `must be ${prefix} followed by a ULID (26 characters)`));

export const texts = (opts: { max?: number } = {}) =>
  new Check<string[]>('string[]', (u) => {
    if (!Array.isArray(u) || !u.every((s) => typeof s === 'string')) return 'must be an array of strings';
    if (opts.max !== undefined && u.length > opts.max) return `must have at most ${opts.max} items`;
    return { value: u };
  });

/** A free-form object, within the limits every read store can hold (free-json.ts). */
export const object = () =>
  new Check<Record<string, unknown>>('object', (u) => {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return 'must be an object';
    const problem = freeJsonProblem(u);
    return problem ? `${problem.path.length ? `at ${problem.path.join('.')} ` : ''}${problem.message}` : { value: u as Record<string, unknown> };
  });

export const orNull = <A>(inner: t.Type<A, A, unknown>) =>
  new Check<A | null>(`${inner.name} | null`, (u) => {
    if (u === null) return { value: null };
    const r = inner.decode(u);
    return E.isRight(r) ? { value: r.right } : `${r.left[0]?.message ?? `must be ${inner.name}`} (or null)`;
  });

type Props = Record<string, t.Mixed>;
type Closed<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & { [K in keyof O]?: t.TypeOf<O[K]> };

/** A JSON object with required and optional fields; an unknown field is an error, not ignored. */
export const closed = <R extends Props, O extends Props>(name: string, required: R, optional: O) =>
  new t.Type<Closed<R, O>, Closed<R, O>, unknown>(
    name,
    (u): u is Closed<R, O> => typeof u === 'object' && u !== null,
    (u, c) => {
      if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, 'must be an object');
      const input = u as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const errors: t.Errors = [];
      // Own properties only: `in` would take `constructor` or `toString` for known fields.
      for (const key of Object.keys(input)) {
        if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key))
          errors.push({ value: input[key], context: t.appendContext(c, key, t.never, input[key]), message: 'is not a known field' });
      }
      const field = (key: string, codec: t.Mixed, isRequired: boolean) => {
        const value = Object.hasOwn(input, key) ? input[key] : undefined;
        if (value === undefined) {
          if (isRequired) errors.push({ value, context: t.appendContext(c, key, codec, value), message: 'is required' });
          return;
        }
        const r = codec.validate(value, t.appendContext(c, key, codec, value));
        if (E.isLeft(r)) errors.push(...r.left);
        else out[key] = r.right;
      };
      for (const [key, codec] of Object.entries(required)) field(key, codec, true);
      for (const [key, codec] of Object.entries(optional)) field(key, codec, false);
      return errors.length ? t.failures(errors) : t.success(out as Closed<R, O>);
    },
    t.identity,
  );

/** An array whose items are checked one by one, each failure named by its index. */
export const listOf = <C extends t.Mixed>(item: C) =>
  new t.Type<t.TypeOf<C>[], t.TypeOf<C>[], unknown>(
    `Array<${item.name}>`,
    (u): u is t.TypeOf<C>[] => Array.isArray(u),
    (u, c) => {
      if (!Array.isArray(u)) return t.failure(u, c, 'must be an array');
      const out: t.TypeOf<C>[] = [];
      const errors: t.Errors = [];
      u.forEach((v, i) => {
        const r = item.validate(v, t.appendContext(c, String(i), item, v));
        if (E.isLeft(r)) errors.push(...r.left);
        else out.push(r.right as t.TypeOf<C>);
      });
      return errors.length ? t.failures(errors) : t.success(out);
    },
    t.identity,
  );

export interface InputProblem {
  field: string;
  message: string;
}

/** `tickets[2].status must be one of …`: array positions in brackets, one line per field. */
export const describeInput = (errors: t.Errors): InputProblem[] => {
  const seen = new Map<string, string>();
  for (const e of errors) {
    const field = e.context
      .map((c) => c.key)
      .filter((k) => k !== '')
      .reduce((path, key) => (/^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key), '');
    if (!seen.has(field)) seen.set(field, e.message ?? `must be ${e.context[e.context.length - 1]?.type.name ?? 'valid'}`);
  }
  return [...seen].map(([field, message]) => ({ field, message }));
};

export const problemsText = (problems: readonly InputProblem[], max = 10): string => {
  const shown = problems
    .slice(0, max)
    .map((p) => (p.field ? `${p.field} ${p.message}` : p.message))
    .join('; ');
  return problems.length > max ? `${shown}; and ${problems.length - max} more` : shown;
};

/** Decodes `value`, or names every problem in one line. */
export const checkInput = <A>(codec: t.Decoder<unknown, A>, value: unknown): E.Either<string, A> =>
  E.mapLeft((errors: t.Errors) => problemsText(describeInput(errors)))(codec.decode(value));
