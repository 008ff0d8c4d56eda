import * as E from 'fp-ts/Either';
import * as t from 'io-ts';

/** What a rule violation means to a caller; the HTTP layer maps each kind to one status. */
/** `plan_limit`: out of AI credits, or a setting the plan does not include (403 PLAN_LIMIT_REACHED). */
export type DomainErrorKind = 'validation' | 'not_found' | 'conflict' | 'plan_limit';

export interface DomainError {
  readonly kind: DomainErrorKind;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export const fail = (kind: DomainErrorKind, message: string, details?: Record<string, unknown>): E.Either<DomainError, never> =>
  E.left({ kind, message, ...(details ? { details } : {}) });

/**
 * A decider is pure: no clock, no ids, no I/O. Commands carry the time and any new ids,
 * so the same history and command always give the same events.
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  // Function-valued properties, not methods: they never use `this`, and are passed around
  // detached (`events.reduce(decider.evolve, …)`).
  decide: (command: Command, state: State) => E.Either<DomainError, readonly Event[]>;
  evolve: (state: State, event: Event) => State;
}

export const fold = <Event, State>(decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>, events: readonly Event[]): State =>
  events.reduce(decider.evolve, decider.initialState);

/** A domain event as stored: a type name and its payload. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export const eventCodec = <Type extends string, Data extends t.Mixed>(type: Type, data: Data) => t.type({ type: t.literal(type), data }, type);

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** Keeps only the keys whose value differs from the current one; `undefined` means "not given". */
export const changedFields = <T extends object>(current: T, requested: Partial<T>): Partial<T> => {
  const out: Partial<T> = {};
  for (const key of Object.keys(requested) as (keyof T)[]) {
    const value = requested[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(current[key])) out[key] = value;
  }
  return out;
};
