import * as t from 'io-ts';
import { ReservationEvent } from './reservation/events';

export * from './decider';
export * from './scopes';
export * from './plans';
export * from './ids';
export * from './text';
export * from './reservation/events';
export * from './reservation/decider';
export * as input from './input';
export * from './free-json';
export * from './imported';

/** The core's own events (unique claims); @support/catalog adds every feature's (features/*). */
export const CoreEvent = ReservationEvent;
export type CoreEvent = t.TypeOf<typeof CoreEvent>;

/** The `type` literals of an event codec (unions, exact and intersection types walked). */
export const eventTypesOf = (codec: t.Mixed): string[] => {
  if (codec instanceof t.UnionType || codec instanceof t.IntersectionType) return (codec.types as t.Mixed[]).flatMap(eventTypesOf);
  if (codec instanceof t.ExactType || codec instanceof t.RefinementType || codec instanceof t.ReadonlyType) return eventTypesOf(codec.type as t.Mixed);
  if (codec instanceof t.InterfaceType || codec instanceof t.PartialType) {
    const type = (codec.props as Record<string, t.Mixed>).type;
    return type instanceof t.LiteralType ? [String(type.value)] : [];
  }
  return [];
};
