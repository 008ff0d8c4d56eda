import * as t from 'io-ts';
import { eventCodec } from '../decider';

/** `owner` is the id of the aggregate holding a set-wide unique value (a tag name, a customer e-mail…). */
export const ReservationClaimed = eventCodec('reservation.claimed', t.type({ owner: t.string }));
export const ReservationReleased = eventCodec('reservation.released', t.type({ owner: t.string }));

export const ReservationEvent = t.union([ReservationClaimed, ReservationReleased]);
export type ReservationEvent = t.TypeOf<typeof ReservationEvent>;
