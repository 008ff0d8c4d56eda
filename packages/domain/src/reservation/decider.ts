import * as E from 'fp-ts/Either';
import { Decider, fail } from '../decider';
import { ReservationEvent } from './events';

export interface ReservationState {
  owner: string | null;
}

export type ReservationCommand =
  | { type: 'claim'; owner: string }
  /** Taking over from an owner that never came to exist (its creator crashed between claim and create). */
  | { type: 'take_over'; owner: string; from: string }
  | { type: 'release'; owner: string };

/**
 * A reservation stream makes a value unique across a workspace: whoever appends the claim
 * first (optimistic concurrency on the stream) holds it until releasing it.
 */
export const reservationDecider: Decider<ReservationCommand, ReservationEvent, ReservationState> = {
  initialState: { owner: null },
  decide(command, state) {
    switch (command.type) {
      case 'claim':
        if (state.owner === command.owner) return E.right([]);
        if (state.owner !== null) return fail('conflict', 'value already taken', { owner: state.owner });
        return E.right([{ type: 'reservation.claimed', data: { owner: command.owner } }]);
      case 'take_over':
        if (state.owner !== command.from) return fail('conflict', 'value already taken', { owner: state.owner });
        return E.right([
          { type: 'reservation.released', data: { owner: command.from } },
          { type: 'reservation.claimed', data: { owner: command.owner } },
        ]);
      case 'release':
        return E.right(state.owner === command.owner ? [{ type: 'reservation.released', data: { owner: command.owner } }] : []);
    }
  },
  evolve(_state, event) {
    return { owner: event.type === 'reservation.claimed' ? event.data.owner : null };
  },
};
